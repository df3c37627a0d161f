import { describe, expect, it } from 'vitest';
import { closestModels, closestToUnknown, editDistance } from '../../src-main/chat/closest-models';
import { findUnknownModels } from '../../src-main/chat/model-guard';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';

/** A small library: the E-series routers, two ROCK boards and an air conditioner service manual. */
function vocabulary(): ModelVocabulary {
  const board = (dir: string, name: string) => ({
    id: `docs/${dir}/README.md`,
    title: `Radxa ${name}`,
    text: `# Radxa ${name}\n\nThe Radxa ${name} is a compact board. ${name} needs a 5V/3A supply. Connect the ${name} with USB3 and an M.2 SSD.`,
    h1Headings: [`Radxa ${name}`],
  });
  return ModelVocabulary.fromDocuments([
    board('e/e52c', 'E52C'),
    board('e/e54c', 'E54C'),
    board('e/e20c', 'E20C'),
    board('rock5/rock5b', 'ROCK 5B'),
    board('rock5/rock5a', 'ROCK 5A'),
    {
      id: 'service/RAC-225B.md',
      title: 'RAC-225B Service Manual',
      text: '# RAC-225B Service Manual\n\nThe RAC-225B takes a 10 A fuse. RAC-225B filters need cleaning.',
      h1Headings: ['RAC-225B Service Manual'],
    },
  ]);
}

describe('unknown model detection', () => {
  const vocab = vocabulary();

  it('knows the library models it was built from', () => {
    const names = vocab.models().map((m) => m.name);
    for (const n of ['E52C', 'E54C', 'E20C', 'ROCK 5B', 'ROCK 5A', 'RAC-225B']) expect(names).toContain(n);
  });

  it('flags model numbers shaped like the library’s own that it has no manual for', () => {
    expect(findUnknownModels('What power supply does the Radxa E99C need?', vocab).map((u) => u.text)).toEqual(['E99C']);
    expect(findUnknownModels('Which fuse does the RAC-999Z take?', vocab).map((u) => u.text)).toEqual(['RAC-999Z']);
    expect(findUnknownModels('Does the ROCK 9X have Wi-Fi?', vocab).map((u) => u.text)).toEqual(['ROCK 9X']);
    expect(findUnknownModels('e99c power supply', vocab).map((u) => u.key)).toEqual(['e99c']);
  });

  it('does not flag models the library has, however they are written', () => {
    for (const q of ['What power supply does the Radxa E52C need?', 'rock 5b fan', 'RAC 225B fuse', 'Compare the E52C and the E54C']) {
      expect(findUnknownModels(q, vocab)).toEqual([]);
    }
  });

  it('does not take units, interfaces, pins or chips for models', () => {
    const q = 'Can it take 5V 3A or 12V, USB3, 2GB or 4GB RAM, an M.2 SSD, GPIO3_A4, an RK3588, x86 code on a Cortex-A76 at 2.4GHz, 1080p60, IP67, 40-pin?';
    expect(findUnknownModels(q, vocab)).toEqual([]);
  });

  it('does not flag a series or family name that begins known models', () => {
    expect(findUnknownModels('Which ROCK 5 boards have NVMe?', vocab)).toEqual([]);
  });

  it('ranks the closest library models: same leading letters first, then edit distance and number', () => {
    const closest = closestModels('E99C', vocab);
    expect(closest).toHaveLength(3);
    expect(closest.every((m) => /^E\d/.test(m))).toBe(true);
    expect(closest[0]).toBe('E54C');
    expect(closestModels('RAC-999Z', vocab)[0]).toBe('RAC-225B');
    expect(closestModels('ROCK 9X', vocab).slice(0, 2).every((m) => m.startsWith('ROCK'))).toBe(true);
  });

  it('gives each unknown name its own closest models, and none to a code of another line', () => {
    const unknown = findUnknownModels('Compare the E99C, the ROCK 9X and the TPS7A47', vocab, undefined, 'any');
    expect(closestToUnknown(unknown, vocab).map((u) => [u.text, u.closest[0] ?? null])).toEqual([
      ['E99C', 'E54C'],
      ['ROCK 9X', closestModels('ROCK 9X', vocab)[0]],
      ['TPS7A47', null],
    ]);
    expect(closestModels('ROCK 9X', vocab)[0]).toMatch(/^ROCK/);
  });

  it('names no model only other manuals mention, which has no manual to ask about', () => {
    const page = (file: string, name: string, text: string) => ({ id: `docs/${file}.md`, title: name, text: `# ${name}\n\n${text}`, h1Headings: [name] });
    const phones = ModelVocabulary.fromDocuments([
      page('nova_x20_ultra', 'Nova X20 Ultra', 'The Nova X20 Ultra has a camera. Unlike the Nova X20, it has a stylus.'),
      page('nova_x10', 'Nova X10', 'The Nova X10 has a camera. Cases of the Nova X20 do not fit.'),
    ]);
    expect(phones.lookup('Nova X20')?.docCount).toBe(0);
    expect(closestModels('Nova X30', phones).sort()).toEqual(['Nova X10', 'Nova X20 Ultra']);
  });

  it('computes Levenshtein distance', () => {
    expect(editDistance('e99c', 'e52c')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('unknown product codes in a follow-up', () => {
  const vocab = vocabulary();

  it('flags a product code shaped like none of the library models only when asked to take any code', () => {
    // Without `anyCode` only names shaped like the library's own count ("ZX-900" may be a part).
    expect(findUnknownModels('And what about the ZX-900?', vocab)).toEqual([]);
    // Chat asks for any code in a follow-up and for a question naming no library model; it then
    // takes back the codes the manuals mention (confirmUnknown).
    expect(findUnknownModels('And what about the ZX-900?', vocab, undefined, 'any').map((u) => u.text)).toEqual(['ZX-900']);
    expect(findUnknownModels('Does the QX70 need a fan?', vocab, undefined, 'any').map((u) => u.text)).toEqual(['QX70']);
  });

  it('takes only codes with three digits or more for a question naming no library model', () => {
    expect(findUnknownModels('What input voltage does the TPS7A47 take?', vocab, undefined, 'product').map((u) => [u.text, u.kind])).toEqual([['TPS7A47', 'code']]);
    expect(findUnknownModels('Does the FAN7631 need a heatsink?', vocab, undefined, 'product').map((u) => u.text)).toEqual(['FAN7631']);
    // Pins, buttons, supplies and standards a manual may not spell out are no product.
    for (const q of ['Where is the KEY1 button?', 'Is PA12 free?', 'What is VDD33?', 'Does it support WPA3?', 'Can I play MPEG4 files?', 'Hold BOOT0', 'What does LED2 mean?', 'And the QX70?']) {
      expect(findUnknownModels(q, vocab, undefined, 'product'), q).toEqual([]);
    }
  });

  it('tells a sibling-shaped name from a code of another product line', () => {
    const found = findUnknownModels('Compare the E99C with the TPS7A47', vocab, undefined, 'any');
    expect(found.map((u) => [u.text, u.kind])).toEqual([
      ['E99C', 'sibling'],
      ['TPS7A47', 'code'],
    ]);
  });

  it('takes no capitalised word and a separate number for a product code in a follow-up', () => {
    for (const q of ['Does it take an SSD 2280?', 'Is the card slot UHS 1?', 'What does LED 2 mean?', 'Is COM 1 free?', 'Can I use CSI 2 cameras?']) {
      expect(findUnknownModels(q, vocab, undefined, 'any'), q).toEqual([]);
    }
  });

  it('takes title-case words and a generation number apart for a product, for a question naming no library model', () => {
    expect(findUnknownModels('What power supply does the Raspberry Pi 5 need?', vocab, undefined, 'product').map((u) => [u.text, u.kind, u.key])).toEqual([['Raspberry Pi 5', 'code', 'raspberrypi5']]);
    expect(findUnknownModels('Raspberry Pi 5', vocab, undefined, 'product').map((u) => u.text)).toEqual(['Raspberry Pi 5']);
    // One word and a number is as often a setting or a system; a unit, a title-case question or a
    // family of the library's models names no product; a follow-up takes none (it would switch).
    for (const q of ['How do I go to Channel 5?', 'Does it run on Windows 11?', 'Is the Raspberry Pi 4 GB enough?', 'How Do I Go To Picture Mode 5?', 'What does the Radxa Rock 5 need?', 'Should I hold the Side Key 10 seconds to force a restart?', 'What happens if I press the Side Key 3 times?']) {
      expect(findUnknownModels(q, vocab, undefined, 'product'), q).toEqual([]);
    }
    expect(findUnknownModels('And the Picture Mode 2?', vocab, undefined, 'any')).toEqual([]);
  });

  it('still takes no unit, interface, known model or family for one in a follow-up', () => {
    for (const q of ['Can it take 5V 3A or 12V, USB3, RAM 8GB, an M.2 SSD, HDMI 2.1, GPIO3_A4, IP67, PD 30W?', 'And the ROCK 5B?', 'Which ROCK 5 boards have NVMe?', 'And the E54C?']) {
      expect(findUnknownModels(q, vocab, undefined, 'any'), q).toEqual([]);
    }
  });
});

describe('a known model with a member ending the library has no manual for', () => {
  // Product pages of two lines that each have a "+" model, as M5Stack's and Radxa's do.
  const page = (file: string, name: string) => ({
    id: `docs/${file}.md`,
    title: name,
    text: `# ${name}\n\nThe ${name} is a compact board. The ${name} battery is 120 mAh and it has 2 buttons.`,
    h1Headings: [name],
  });
  const vocab = ModelVocabulary.fromDocuments([
    page('m5stickc', 'M5StickC'),
    page('m5stickc_plus', 'M5StickC Plus'),
    page('rock5b', 'ROCK 5B'),
    page('rock5b_plus', 'ROCK 5B+'),
    page('galaxy_s7', 'Galaxy S7'),
    page('galaxy_s7_edge', 'Galaxy S7 Edge'),
    page('galaxy_s10', 'Galaxy S10'),
    page('kb-20', 'KB-20'),
    page('kb-20-1', 'KB-20-1'),
  ]);

  it('flags the name with the ending, not the shorter model it begins with', () => {
    expect(vocab.lookup('M5StickC Plus')?.name).toBe('M5StickC+');
    // "Plus2" is the "+" ending and a generation: it extends the M5StickC+, though its mention reads the M5StickC.
    const one = findUnknownModels('What is the battery of the M5StickC Plus2?', vocab);
    expect(one.map((u) => [u.text, u.kind, u.extends])).toEqual([['M5StickC Plus2', 'sibling', 'M5StickC+']]);
    const split = findUnknownModels('What is the battery of the M5StickC Plus 2?', vocab);
    expect(split.map((u) => [u.text, u.extends])).toEqual([['M5StickC Plus 2', 'M5StickC+']]);
    expect(findUnknownModels('Is there a heatsink for the rock 5b plus 3?', vocab).map((u) => u.text)).toEqual(['rock 5b plus 3']);
  });

  it('ranks the model the name extends first, however "plus" is written', () => {
    expect(closestModels('M5StickC Plus2', vocab).slice(0, 2)).toEqual(['M5StickC+', 'M5StickC']);
    expect(closestModels('M5StickC Plus 2', vocab).slice(0, 2)).toEqual(['M5StickC+', 'M5StickC']);
    // Only models of the asked name's own line: the ROCK boards share no leading letters with it.
    expect(closestModels('M5StickC Plus2', vocab)).toEqual(['M5StickC+', 'M5StickC']);
  });

  it('takes no quantity, plain word or known member for an ending', () => {
    expect(vocab.lookup('Galaxy S7 Edge')?.name).toBe('Galaxy S7 Edge');
    expect(vocab.lookup('KB-20-1')?.name).toBe('KB-20-1');
    expect(findUnknownModels('Does the Galaxy S10 Edge have a headphone jack?', vocab).map((u) => u.text)).toEqual(['Galaxy S10 Edge']);
    const plain = [
      'M5StickC Plus battery',
      'ROCK 5B+ 2 GB version',
      'M5StickC 2 buttons',
      'M5StickC+ 2 buttons',
      'ROCK 5B plus 2 fans',
      'ROCK 5B plus heatsink',
      'M5StickC a battery',
      'Compare the M5StickC and the M5StickC Plus',
      // A feature named after the ending ("edge lighting"), and a count after a name whose
      // library has a numbered member ("KB-20-1"): a number alone is no ending.
      'How do I turn on Galaxy S10 edge lighting?',
      'KB-20 2 x USB',
      'Does the KB-20 2 GB version have wifi?',
    ];
    for (const q of plain) {
      expect(findUnknownModels(q, vocab), q).toEqual([]);
    }
  });
});

describe('a mention read inside a longer name the library has no manual for', () => {
  const page = (file: string, name: string) => ({
    id: `docs/${file}.md`,
    title: name,
    text: `# ${name}\n\nThe ${name} is a compact device. The ${name} battery is 120 mAh.`,
    h1Headings: [name],
  });
  const vocab = ModelVocabulary.fromDocuments([
    page('xiao_esp32c3', 'XIAO ESP32-C3'),
    page('xiao_esp32s3', 'XIAO ESP32-S3'),
    page('xiao_nrf52840', 'XIAO nRF52840'),
    page('galaxy_s7', 'Galaxy S7'),
    page('galaxy_tab_s6', 'Galaxy Tab S6'),
  ]);

  it('takes a family name with a code after it, and series words before a short code, for one unknown name', () => {
    const family = findUnknownModels('How do I enter bootloader mode on the XIAO ESP32-C9?', vocab);
    expect(family.map((u) => [u.text, u.kind, u.family])).toEqual([['XIAO ESP32-C9', 'sibling', true]]);
    expect(closestModels('XIAO ESP32-C9', vocab)).toEqual(['XIAO ESP32-C3', 'XIAO ESP32-S3', 'XIAO nRF52840']);
    const series = findUnknownModels('How do I take a screenshot on the Galaxy Tab S7?', vocab);
    expect(series.map((u) => [u.text, u.family])).toEqual([['Galaxy Tab S7', true]]);
  });

  it('takes a name with more letter and digit runs than the line it shares its letters with', () => {
    // "xiaonrf54l15" beside "xiaonrf52840": no mention reads it, and it was answered for whichever board ranked first.
    expect(findUnknownModels('How do I enter bootloader mode on the XIAO nRF54L15?', vocab).map((u) => u.text)).toEqual(['XIAO nRF54L15']);
    expect(closestModels('XIAO nRF54L15', vocab)[0]).toBe('XIAO nRF52840');
  });

  it('takes no family written alone or with a unit or interface, nor a model the library has', () => {
    for (const q of ['How do I enter bootloader mode on the XIAO ESP32?', 'Can the XIAO ESP32 5V pin power a servo?', 'Does the XIAO ESP32 GPIO2 pin do PWM?', 'How do I take a screenshot on the Galaxy Tab S6?', 'How do I take a screenshot on the Galaxy S7?', 'Compare the XIAO ESP32-C3 and the XIAO ESP32-S3', 'What is the XIAO nRF52840 A0 pin?']) {
      expect(findUnknownModels(q, vocab), q).toEqual([]);
    }
  });
});
