/** The question box, where a keyboard user goes next when a button they pressed goes away (or a list offers nothing to focus). */
export const focusQuestion = (): void => document.getElementById('question')?.focus();
