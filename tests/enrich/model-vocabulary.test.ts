import { describe, expect, it } from 'vitest';
import { familyPattern, ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { corpusRoots } from '../helpers/temp';
import { markdownDocument } from './corpus.helper';
import { describeVocabularyOnBoards } from './vocabulary.suite';

const doc = markdownDocument;

describe('ModelVocabulary learning', () => {
  it('learns a product folder whose name is written out in its documents', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('lib/rock5/rock5b/intro.md', '# Product Introduction\n\nThe Radxa ROCK 5B is a single board computer.'),
      doc('lib/rock5/rock5b/power.md', '# Power\n\nUse a 5V/3A adapter with the ROCK 5B.'),
      doc('lib/rock5/getting-started/README.md', '# Getting Started\n\nRead this first.'),
    ]);
    expect(v.identityOf('lib/rock5/rock5b/power.md')).toMatchObject({ model: 'ROCK 5B', base: 'ROCK 5B', source: 'folder' });
    expect(v.identityOf('lib/rock5/getting-started/README.md')).toBeNull();
    expect(v.models().map((m) => m.name)).toEqual(['ROCK 5B']);
    expect(v.categoryOf('ROCK 5B')).toBe('single board computer');
  });

  it('does not sign a folder of several titled products with the folder name', () => {
    // A vendor name with a digit ("Kit9") as the library's folder, written out in every page.
    const v = ModelVocabulary.fromDocuments([
      doc('kit9/core/k10.md', '# K10\n\nThe K10 is the first Kit9 core. Battery: 110 mAh.'),
      doc('kit9/core/p20.md', '# P20\n\nThe P20 is the second Kit9 core. Battery: 390 mAh.'),
      doc('kit9/core/fire.md', '# FIRE\n\nFIRE is a Kit9 core with more memory.'),
    ]);
    expect(v.identityOf('kit9/core/k10.md')?.model).toBe('K10');
    expect(v.identityOf('kit9/core/p20.md')?.model).toBe('P20');
    expect(v.identityOf('kit9/core/fire.md')?.model ?? null).not.toBe('Kit9');
    expect(v.models().map((m) => m.name)).not.toContain('Kit9');
  });

  it('keeps a product folder whose few pages are titled after the carrier boards it fits', () => {
    const pages = ['Power', 'GPIO', 'Display', 'Audio', 'Camera', 'Reset', 'Fan', 'Storage'].map((t) => doc(`lib/zx9/${t.toLowerCase()}.md`, `# ${t}\n\nThe ZX9 ${t.toLowerCase()} section. Use the ZX9 here.`));
    const v = ModelVocabulary.fromDocuments([
      ...pages,
      doc('lib/zx9/carriers/k10.md', '# K10 Base\n\nThe ZX9 on the K10 Base board.'),
      doc('lib/zx9/carriers/p20.md', '# P20 Nano\n\nThe ZX9 on the P20 Nano board.'),
    ]);
    expect(v.identityOf('lib/zx9/power.md')?.model).toBe('ZX9');
  });

  it('takes a model written with and without a series prefix many models share as one model', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('kit/core/core2.md', '# QXCore2\n\nThe QXCore2 is the second core. Battery: 390 mAh.'),
      doc('kit/core/paper.md', '# QXPaper2\n\nThe QXPaper2 has an e-ink screen.'),
      doc('kit/core/stick.md', '# QXStick3\n\nThe QXStick3 is small.'),
      doc('kit/quick/core2/start.md', '# Quick Start\n\nConnect the Core2 to USB, then flash the Core2.'),
    ]);
    expect(v.lookup('Core2')?.name).toBe('QXCore2');
    expect(v.identityOf('kit/quick/core2/start.md')?.model).toBe('QXCore2');
    expect(v.identityOf('kit/core/core2.md')?.model).toBe('QXCore2');
    expect(v.models().map((m) => m.name)).not.toContain('Core2');
  });

  it('learns a vendor word from the library: one written before many products is stripped, not a series', () => {
    const boards = ['K10', 'K20', 'P30', 'Q40', 'Z50'];
    const v = ModelVocabulary.fromDocuments(
      boards.map((b) => doc(`lib/${b.toLowerCase()}/README.md`, `# Acme ${b}\n\nThe Acme ${b} is a board. Power the Acme ${b} with 5 V.`)),
    );
    expect(v.models().map((m) => m.name).sort()).toEqual(boards);
    expect(v.vendorWords()).toContain('Acme');
    expect(v.findMentions('acme k20 power').map((m) => m.model)).toEqual(['K20']);
    // Two products are too few to tell a vendor from a series word.
    const two = ModelVocabulary.fromDocuments(boards.slice(0, 2).map((b) => doc(`lib/${b.toLowerCase()}/README.md`, `# Acme ${b}\n\nThe Acme ${b} is a board. Power the Acme ${b} with 5 V.`)));
    expect(two.vendorWords()).not.toContain('Acme');
  });

  it('learns no vendor from a section heading that opens each product page with its name', () => {
    // "## Description" then "**K10** is ...": the heading word stands right before every product, once a page.
    const boards = ['K10', 'K20', 'P30', 'Q40', 'Z50'];
    const page = (b: string, vendor: string): string => `# ${b}\n\n## Description\n\n**${vendor}${b}** is a board. Power the ${vendor}${b} with 5 V.`;
    const v = ModelVocabulary.fromDocuments(boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, page(b, ''))));
    expect(v.models().map((m) => m.name).sort()).toEqual(boards);
    expect(v.vendorWords()).toEqual([]);
    // A vendor's name written with its products through the same pages is still learned.
    const vendor = ModelVocabulary.fromDocuments(boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, page(b, 'Acme '))));
    expect(vendor.vendorWords()).toEqual(['Acme']);
  });

  it('learns a vendor each one-page datasheet names once, before its product', () => {
    const boards = ['K10', 'K20', 'P30', 'Q40', 'Z50'];
    const v = ModelVocabulary.fromDocuments(
      boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, `# ${b}\n\n**Acme ${b}** is a board. Power the ${b} with 5 V. The ${b} has USB.`)),
    );
    expect(v.vendorWords()).toEqual(['Acme']);
  });

  it('learns no vendor from a heading or column word that ends its line before the product, however often', () => {
    // Read as prose, "## Description\n\n**K10**" and "| Description | K10 pin map |" both put
    // "Description" right before "K10", twice a page.
    const boards = ['K10', 'K20', 'P30', 'Q40', 'Z50'];
    const page = (b: string): string =>
      `# ${b}\n\n## Description\n\n**${b}** is a board.\n\n## Pins\n\n| Name | Value |\n|---|---|\n| Description | ${b} pin map |\n\nPower the ${b} with 5 V.`;
    const v = ModelVocabulary.fromDocuments(boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, page(b))));
    expect(v.models().map((m) => m.name).sort()).toEqual(boards);
    expect(v.vendorWords()).toEqual([]);
  });

  it('learns no vendor from a word capitalised only where it opens a sentence', () => {
    // "Connect" opens the steps before each product; the pages write "connect" in lower case too.
    const boards = ['K10', 'K20', 'P30', 'Q40', 'Z50'];
    const page = (b: string, verb: string): string =>
      `# ${b}\n\nThe ${b} is a board. ${verb} ${b} to the computer. ${verb} ${b} to a 5 V supply. Then connect the display.`;
    const v = ModelVocabulary.fromDocuments(boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, page(b, 'Connect'))));
    expect(v.vendorWords()).toEqual([]);
    // A name that opens a sentence is still one where the pages never write it in lower case.
    const named = ModelVocabulary.fromDocuments(boards.map((b) => doc(`lib/${b.toLowerCase()}.md`, page(b, 'Acme'))));
    expect(named.vendorWords()).toEqual(['Acme']);
  });

  it('accepts a digit-free folder only when a title in it is written as a name', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('lib/zero/zero/README.md', '# ZERO\n\nRadxa ZERO is a tiny board.'),
      doc('lib/zero/zero/install-system/README.md', '# Install System\n\nInstall the system on the ZERO.'),
    ]);
    expect(v.lookup('ZERO')?.kind).toBe('product');
    expect(v.lookup('Install System')).toBeNull();
    expect(v.identityOf('lib/zero/zero/install-system/README.md')?.model).toBe('ZERO');
  });

  it('learns a digit-free name from the title of a page that gives itself an ordering code', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('kit/core/lumen_lite.md', '# LUMEN Lite\n\n<span>SKU:C008</span>\n\nA compact board.'),
      doc('kit/core/nova.md', '# Nova Vision\n\n---\n\nSKU: ABX00051. A camera board.'),
      // No code: a title is only a title.
      doc('kit/guide/setup.md', '# Install System\n\nInstall the system first.'),
      // A code, but a sentence for a title.
      doc('kit/guide/start.md', '# Getting Started With The Kit\n\nSKU: K001.'),
    ]);
    expect(v.identityOf('kit/core/lumen_lite.md')).toMatchObject({ model: 'LUMEN Lite', source: 'title' });
    expect(v.identityOf('kit/core/nova.md')?.model).toBe('Nova Vision');
    expect(v.identityOf('kit/guide/setup.md')).toBeNull();
    expect(v.identityOf('kit/guide/start.md')).toBeNull();
    expect(v.findMentions('lumen lite RGB LED').map((m) => m.model)).toEqual(['LUMEN Lite']);
  });

  it('strips a two-word vendor name from product names when its second word is the learned vendor word', () => {
    // "Studio" stands before five products; "Seeed" stands before "Studio", not before a product.
    const boards = ['RP2350', 'MG24', 'RA4M1', 'SAMD21', 'C6X'].map((m) =>
      doc(`wiki/xiao_${m.toLowerCase()}/getting-started.md`, `# Seeed Studio XIAO ${m} with Arduino\n\nThe Seeed Studio XIAO ${m} is a board. Plug the Seeed Studio XIAO ${m} in.`),
    );
    const v = ModelVocabulary.fromDocuments(boards);
    expect(v.vendorWords()).toContain('Studio');
    expect(v.models().map((m) => m.name)).toContain('XIAO RP2350');
    expect(v.findMentions('Seeed Studio XIAO RP2350 clock').map((m) => m.model)).toEqual(['XIAO RP2350']);
    expect(v.findMentions('xiao rp2350 clock').map((m) => m.model)).toEqual(['XIAO RP2350']);
  });

  it('makes a product named as another product plus words without digits that product\'s member', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('wiki/XIAO_nRF52840/a.md', '# Intro\n\nThe XIAO nRF52840 board.'),
      doc('wiki/XIAO_nRF52840-Sense/a.md', '# Intro\n\nThe XIAO nRF52840-Sense board has an IMU.'),
      doc('wiki/XIAO_nRF52841/a.md', '# Intro\n\nThe XIAO nRF52841 board.'),
    ]);
    expect(v.relation('XIAO nRF52840-Sense', 'XIAO nRF52840')).toBe('member');
    expect(v.familyOf('XIAO nRF52840-Sense')).toContain('XIAO nRF52840');
    // A further code is another product, not a member.
    expect(v.relation('XIAO nRF52841', 'XIAO nRF52840')).toBe('none');
  });

  it('learns members that extend a product name and keeps "+" distinct', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('lib/rock5b/a.md', '# Intro\n\nThe ROCK 5B/5B+ boards. ROCK 5B+ adds a B key.'),
      doc('lib/rock5b/b.md', '# More\n\nOnly the ROCK 5B+ has it; the ROCK 5B does not.'),
    ]);
    const member = v.lookup('ROCK 5B+');
    expect(member).toMatchObject({ name: 'ROCK 5B+', kind: 'member', parent: 'ROCK 5B' });
    expect(v.relation('ROCK 5B+', 'ROCK 5B')).toBe('member');
    expect(v.lookup('rock 5b plus')?.name).toBe('ROCK 5B+');
    expect(v.lookup('rock 5b')?.name).toBe('ROCK 5B');
  });

  it('learns a compute module\'s IO board as a member of the module, not as the module', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('lib/cm/cm5/README.md', '# Radxa CM5\n\nThe Radxa CM5 is a compute module. The CM5 IO Board carries it.'),
      doc('lib/cm/cm5/power.md', '# Power\n\nThe Radxa CM5 IO carrier board is powered by a 12V DC jack; the CM5 module takes 5V.'),
    ], { vendors: ['Radxa'] });
    expect(v.lookup('CM5 IO')).toMatchObject({ kind: 'member', parent: 'CM5' });
    expect(v.findMentions('Radxa CM5 IO Board').map((m) => m.model)).toEqual(['CM5 IO']);
    expect(v.findMentions('the CM5 module').map((m) => m.model)).toEqual(['CM5']);
    expect(v.relation('CM5 IO', 'CM5')).toBe('member');
    // A heading that is the board's whole name counts too, without the word "board".
    const heading = ModelVocabulary.fromDocuments([
      doc('lib/cm/cm5/README.md', '# Radxa CM5\n\nThe Radxa CM5 is a compute module.'),
      doc('lib/cm/cm5/carrier.md', '# Carrier\n\n## Radxa CM5 IO\n\nIt takes 12V.'),
    ], { vendors: ['Radxa'] });
    expect(heading.lookup('CM5 IO')).toMatchObject({ kind: 'member', parent: 'CM5' });
  });

  it('does not make a member of "IO" that does not name a board ("IO expander" after a model name)', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('kits/esp32-s2-hmi-devkit-1/user_guide.md', '# ESP32-S2-HMI-DevKit-1\n\nThe ESP32-S2-HMI-DevKit-1 is a development board.'),
      doc(
        'kits/esp32-s2-hmi-devkit-1/display.md',
        [
          '# Display',
          '',
          '## ESP32-S2-HMI-DevKit-1 IO expander',
          '',
          'The touch IC signals the ESP32-S2-HMI-DevKit-1 IO expander. Read the ESP32-S2-HMI-DevKit-1 IO expander register.',
          '',
          'ESP32-S2-HMI-DevKit-1 IO expander schematic. The ESP32-S2-HMI-DevKit-1 IO pins are 3.3V.',
        ].join('\n'),
      ),
    ]);
    expect(v.lookup('ESP32-S2-HMI-DevKit-1 IO')).toBeNull();
    expect(v.models().map((m) => m.name)).toEqual(['ESP32-S2-HMI-DevKit-1']);
    expect(v.findMentions('the ESP32-S2-HMI-DevKit-1 IO expander').map((m) => m.model)).toEqual(['ESP32-S2-HMI-DevKit-1']);
  });

  it('makes revisions from titles and file names variants of their base', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('kits/esp32-s3-devkitc-1/user_guide_v1.0.md', '# ESP32-S3-DevKitC-1 v1.0\n\nThe ESP32-S3-DevKitC-1 is a development board.'),
      doc('kits/esp32-s3-devkitc-1/user_guide.md', '# ESP32-S3-DevKitC-1 v1.1\n\nThe ESP32-S3-DevKitC-1 is a development board.'),
      doc('kits/esp8684-devkitm-1/user_guide-v1.0.md', '# ESP8684-DevKitM-1\n\nAbout the ESP8684-DevKitM-1 board.'),
    ]);
    expect(v.identityOf('kits/esp32-s3-devkitc-1/user_guide_v1.0.md')?.model).toBe('ESP32-S3-DevKitC-1 v1.0');
    expect(v.identityOf('kits/esp32-s3-devkitc-1/user_guide.md')?.model).toBe('ESP32-S3-DevKitC-1 v1.1');
    expect(v.identityOf('kits/esp8684-devkitm-1/user_guide-v1.0.md')?.model).toBe('ESP8684-DevKitM-1 v1.0');
    expect(v.relation('ESP32-S3-DevKitC-1 v1.0', 'ESP32-S3-DevKitC-1 v1.1')).toBe('revision');
    expect(v.lookup('ESP32-S3-DevKitC-1 v1.1')).toMatchObject({ kind: 'variant', parent: 'ESP32-S3-DevKitC-1', revision: '1.1' });
  });

  it('lets a revisioned product file override its folder, but keeps accessory pages with the folder', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('kits/esp32-s2-kaluga-1/user_guide.md', '# ESP32-S2-Kaluga-1 Kit v1.3\n\nThe ESP32-S2-Kaluga-1 kit.'),
      doc('kits/esp32-s2-kaluga-1/user-guide-esp-lyrat-8311a_v1.3.md', '# ESP-LyraT-8311A v1.3\n\nThe ESP-LyraT-8311A extension board.'),
      doc('boards/cubie/a7a/README.md', '# Radxa Cubie A7A\n\nThe Cubie A7A is a single board computer.'),
      doc('boards/cubie/a7a/accessories/camera-4k.md', '# Radxa Camera 4K\n\nUse the Camera 4K with the Cubie A7A.'),
    ]);
    expect(v.identityOf('kits/esp32-s2-kaluga-1/user_guide.md')?.model).toBe('ESP32-S2-Kaluga-1 v1.3');
    expect(v.identityOf('kits/esp32-s2-kaluga-1/user-guide-esp-lyrat-8311a_v1.3.md')).toMatchObject({ model: 'ESP-LyraT-8311A v1.3', source: 'file' });
    expect(v.identityOf('boards/cubie/a7a/accessories/camera-4k.md')).toMatchObject({ model: 'Cubie A7A', source: 'folder' });
  });

  it('falls back to a model number in the title, and learns the models a stitched manual is made of', () => {
    const v = ModelVocabulary.fromDocuments([
      doc('manuals/rac-series.md', '# RAC-225B Service Manual\n\nAir conditioner.\n\n# RAC-228B Service Manual\n\nAir conditioner.'),
      doc('manuals/notes.md', '# General safety\n\nKeep the unit dry.'),
    ]);
    expect(v.identityOf('manuals/rac-series.md')).toMatchObject({ model: 'RAC-225B', source: 'title', category: 'air conditioner' });
    expect(v.lookup('rac 228b')?.name).toBe('RAC-228B');
    expect(v.identityOf('manuals/notes.md')).toBeNull();
  });

  it('judges a document that was not added from its own path and title', () => {
    const v = ModelVocabulary.fromDocuments([doc('lib/e/e52c/a.md', '# E52C\n\nThe Radxa E52C router.')]);
    expect(v.identityOf(doc('lib/e/e52c/new.md', '# Something\n\nText.'))?.model).toBe('E52C');
    expect(v.identityOf(doc('other/Galaxy_S10.md', '# Samsung Galaxy S10 User Manual\n\nHello.'))?.model).toBe('Galaxy S10');
    expect(v.hasDocument('lib/e/e52c/new.md')).toBe(false);
  });
});

describe('ModelVocabulary storage', () => {
  const docs = [
    doc('lib/e/e20c/a.md', '# Intro\n\nThe Radxa E20C.'),
    doc('lib/e/e52c/a.md', '# Intro\n\nThe Radxa E52C.'),
    doc('kits/esp32-c6-devkitc-1/user_guide.md', '# ESP32-C6-DevKitC-1 v1.2\n\nBoard.'),
  ];

  it('round-trips through JSON with the same models and identities', () => {
    const v = ModelVocabulary.fromDocuments(docs);
    const restored = ModelVocabulary.fromJSON(JSON.parse(JSON.stringify(v.toJSON())));
    expect(restored.ok).toBe(true);
    if (!restored.ok) return;
    expect(restored.value.models()).toEqual(v.models());
    for (const d of docs) expect(restored.value.identityOf(d.id)).toEqual(v.identityOf(d.id));
  });

  it('reports a damaged store as corrupt instead of throwing', () => {
    const r = ModelVocabulary.fromJSON({ version: 1, vendors: 'x', docs: 3 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('corrupt');
  });

  it('updates incrementally as documents are added and removed', () => {
    const v = ModelVocabulary.fromDocuments(docs.slice(0, 1));
    expect(v.lookup('E52C')).toBeNull();
    v.addDocument(docs[1]!);
    expect(v.lookup('E52C')?.name).toBe('E52C');
    expect(v.removeDocument('lib/e/e52c/a.md')).toBe(true);
    expect(v.lookup('E52C')).toBeNull();
    expect(v.documentCount).toBe(1);
  });
});

describe('ModelVocabulary part numbers as datasheets write them', () => {
  // Datasheets and evaluation-board manuals named the way vendors publish them (file names as on
  // their sites); the part numbers are made up.
  const v = ModelVocabulary.fromDocuments([
    doc('ds/KX78XX-KX78XXA.md', '# KX78XX/KX78XXA 3-Terminal 1A Positive Voltage Regulator\n\n## Electrical Characteristics (KX7812A)\n\nOutput voltage 11.75 to 12.25 V.'),
    doc('evt/QH32V30x-Evaluation-Board-Reference-EN.md', '# QH32V30x Evaluation Board\n\nThe QH32V30x evaluation board carries a QH32V307.'),
    doc('evt/QH32X3x5-Evaluation-Board-Reference-EN.md', '# QH32X3x5 Evaluation Board\n\nSerial download on PA4 and PA5.'),
    doc('evt/QH592EVT-Evaluation-Board-Manual.md', '# QH592EVT Evaluation Board\n\nDefault pin to download boot: PB22.'),
    doc('evt/QH41-Evaluation-Board-Reference-EN.md', '# QH41 Evaluation Board\n\nThe QH41 board.'),
  ]);
  const named = (q: string) => v.findMentions(q).map((m) => [m.text, m.model, m.byPattern ?? false]);

  it('reads placeholder digits as a family pattern, and a single capital X as a letter', () => {
    expect(familyPattern('LM78XX')?.test('lm7812')).toBe(true);
    expect(familyPattern('LM78XXA')?.test('lm7824a')).toBe(true);
    expect(familyPattern('CH32X3x5')?.test('ch32x315')).toBe(true);
    expect(familyPattern('CH32X3x5')?.test('ch32y315')).toBe(false);
    expect(familyPattern('CH32X035')).toBeNull();
    expect(familyPattern('0x10')).toBeNull();
    expect(familyPattern('24x24mm')).toBeNull();
  });

  it('names a family member by its pattern, and keeps that it is a member', () => {
    expect(named('KX7824A: minimum output voltage')).toEqual([['KX7824A', 'KX78XX', true]]);
    expect(named('QH32X315 UART pins')).toEqual([['QH32X315', 'QH32X3x5 Evaluation Board', true]]);
    expect(named('QH32V307 board')).toEqual([['QH32V307', 'QH32V30x Evaluation Board', true]]);
  });

  it('names a board by its part number without "Evaluation Board" or an evaluation-kit suffix', () => {
    expect(named('QH41 download pins')).toEqual([['QH41', 'QH41 Evaluation Board', false]]);
    expect(named('QH592 boot pin')).toEqual([['QH592', 'QH592EVT Evaluation Board', false]]);
  });

  it('does not take a caption with a code in parentheses for a product name', () => {
    const captions = ModelVocabulary.fromDocuments([
      doc('ds/KX78XX.md', '# KX78XX Regulator\n\n## Electrical Characteristics (KX7805A)\n\nA.\n\n## Electrical Characteristics (KX7812A)\n\nB.'),
    ]);
    expect(captions.models().map((m) => m.name)).toEqual(['KX78XX']);
  });

  it('names nothing when a code fits no family or two', () => {
    expect(named('QH33V307 pins')).toEqual([]);
  });
});

describe('ModelVocabulary mention finding', () => {
  const docs = [doc('lib/e/e20c/a.md', '# Intro\n\nThe Radxa E20C.'), doc('lib/e/e52c/a.md', '# Intro\n\nThe Radxa E52C.')];

  it('finds models in a heading it has seen before once the vocabulary learns them', () => {
    const v = ModelVocabulary.fromDocuments(docs.slice(0, 1));
    expect(v.findMentions('E52C power input')).toEqual([]);
    v.addDocument(docs[1]!);
    expect(v.findMentions('E52C power input').map((m) => m.model)).toEqual(['E52C']);
  });

  it('reads a family named by its first words as its members, not as the model a fragment aliases', () => {
    // "R4" alone is the Nano R4's short name; "UNO R4" begins two other boards' names.
    const boards = ['Nano R4', 'UNO R4 Minima', 'UNO R4 WiFi', 'Nano Every'].map((t) =>
      doc(`hw/${t.toLowerCase().replace(/ /g, '-')}/datasheet.md`, `---\ntitle: ${t}\n---\n\n# ${t}\n\nThe ${t} board.`),
    );
    const v = ModelVocabulary.fromDocuments(boards);
    expect(v.findMentions('UNO R4 DC current per pin').map((m) => [m.text, m.model])).toEqual([
      ['UNO R4', 'UNO R4 Minima'],
      ['UNO R4', 'UNO R4 WiFi'],
    ]);
    expect(v.findMentions('UNO R4 WiFi pins').map((m) => m.model)).toEqual(['UNO R4 WiFi']);
    expect(v.findMentions('Nano R4 pins').map((m) => m.model)).toEqual(['Nano R4']);
    // A model named outright wins over a family its words also begin.
    expect(v.findMentions('the UNO R4 WiFi beside an UNO R4').map((m) => m.model)).toEqual(['UNO R4 WiFi']);
  });

  it('returns mentions that a caller may change without changing later answers', () => {
    const v = ModelVocabulary.fromDocuments(docs);
    const first = v.findMentions('E20C and E52C');
    first[0]!.model = 'changed';
    first.pop();
    expect(v.findMentions('E20C and E52C').map((m) => m.model)).toEqual(['E20C', 'E52C']);
  });

  it('finds the same mentions in long texts as in their short pieces', () => {
    const v = ModelVocabulary.fromDocuments(docs);
    const piece = 'Connect the E20C to the router, then the E52C. ';
    const long = piece.repeat(10);
    expect(v.findMentions(long).map((m) => [m.model, m.start])).toEqual(
      Array.from({ length: 10 }, (_, i) => v.findMentions(piece).map((m) => [m.model, m.start + i * piece.length])).flat(),
    );
  });
});

// The same checks over the whole corpora, with more products, are in model-vocabulary.corpus.test.ts.
describeVocabularyOnBoards(
  corpusRoots.fixture,
  [
    ['radxa-docs/e/e20c/getting-started/power-supply.md', 'E20C'],
    ['radxa-docs/e/e52c/getting-started/power-supply.md', 'E52C'],
    ['radxa-docs/rock5/rock5a/getting-started/introduction.md', 'ROCK 5A'],
    ['radxa-docs/rock5/rock5c/getting-started/introduction.md', 'ROCK 5C'],
    ['radxa-docs/zero/zero3/faq.md', 'ZERO 3'],
    ['esp-dev-kits/md/esp32-s3-devkitc-1/user_guide_v1.0.md', 'ESP32-S3-DevKitC-1 v1.0'],
    ['esp-dev-kits/md/esp32-s3-devkitc-1/user_guide_v1.1.md', 'ESP32-S3-DevKitC-1 v1.1'],
  ],
  6,
);
