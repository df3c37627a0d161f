import { useRef, type KeyboardEvent } from 'react';

export interface RadioChoice<T extends string> {
  value: T;
  label: string;
  /** Said on hover: what the choice does. */
  hint?: string;
}

/**
 * A row of buttons that choose one of a few values, as a WAI-ARIA radio group: one tab stop (the
 * chosen button), the arrow keys move to the next or previous choice and choose it, wrapping
 * round, Home and End to the first and last. Screen readers announce "radio button, 1 of 3" and
 * users then press the arrows, which did nothing when each choice was a Tab stop of its own.
 */
export function RadioGroup<T extends string>({
  label,
  choices,
  value,
  onChange,
}: {
  label: string;
  choices: readonly RadioChoice<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  const group = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = choices.findIndex((c) => c.value === value);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: choices.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const index = (to + choices.length) % choices.length;
    onChange(choices[index]!.value);
    group.current?.querySelectorAll<HTMLElement>('[role="radio"]')[index]?.focus();
  };
  return (
    <div ref={group} className="segmented" role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {choices.map((c) => (
        <button key={c.value} type="button" role="radio" aria-checked={value === c.value} tabIndex={value === c.value ? 0 : -1} title={c.hint} onClick={() => onChange(c.value)}>
          {c.label}
        </button>
      ))}
    </div>
  );
}
