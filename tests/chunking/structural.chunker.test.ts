import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import type { ChunkContext } from '../../src-main/chunking/chunker';
import { builtinSectionSchema } from '../../src-main/chunking/section.schema';
import type { StructuralChunk } from '../../src-main/chunking/structural.chunker';
import { toStructuredJson } from '../../src-main/chunking/structured.formatter';
import { buildCorpusStats } from '../../src-main/chunking/tfidf';
import type { NormalizedDocument } from '../../src-main/core/document';
import { expectAtomicBlocksWhole, expectBlockMetadata, expectTiling, hashedEmbedder, mdDoc, unwrap } from './chunking.helpers';

async function structural(doc: NormalizedDocument, options: object = {}, ctx: ChunkContext = {}): Promise<StructuralChunk[]> {
  const chunks = unwrap(await unwrap(createChunker('structural', options)).chunk(doc, ctx)) as StructuralChunk[];
  expectTiling(doc, chunks);
  expectAtomicBlocksWhole(doc, chunks);
  expectBlockMetadata(doc, chunks);
  return chunks;
}

const types = (chunks: readonly StructuralChunk[]): string[] => chunks.map((c) => c.sectionType);

/** Markdown resume with ## sections and ### entries; the first project is told in three paragraphs. */
const PROJECT_PARAGRAPHS = [
  'Developing an emotional companion AI agent to serve the programming community, with long-term memory of each conversation.',
  'Built the dialogue engine and the persona module in Python; the agent keeps a diary of the user mood across sessions.',
  'Shipped the web client in JS with streaming replies; the beta reached two thousand weekly users.',
];
const markdownResume = [
  '# Louis Zhang',
  'Email: louis@example.com | Phone: +86 138 0000 0000 | Location: Shanghai',
  '## Skills',
  'Python, JavaScript, TypeScript, Docker, Kubernetes, PostgreSQL, Redis, PyTorch.',
  '## Self-evaluation',
  'Love learning, strong stress resistance, high efficiency; a team player with agile development experience.',
  '## Certifications',
  '- AWS Certified Solutions Architect\n- CET-6 certificate\n- IELTS 7.5',
  '## Work Experience',
  '### Senior Engineer, Acme Robotics Ltd.',
  '2021-03 – 2024-06',
  'Led the platform team that runs fleet software for warehouse robots.',
  '## Project Experience',
  '### Emotional Companion AI Agent',
  '2026-01 – 2026-02 | Role: design, development, testing',
  ...PROJECT_PARAGRAPHS,
  '### Fleet Telemetry Dashboard',
  '2024-07 – 2025-03',
  'A dashboard for robot battery and motor telemetry with alerting.',
].join('\n\n');

/** Plain text as extracted from a PDF: no section titles at all. */
const headerlessResume = [
  'Louis Zhang\nEmail: louis@example.com\nPhone: +86 138 0000 0000',
  'Python, Java, C++, Docker, Kubernetes, AWS, React, MySQL',
  'Software Engineer at Acme Robotics Ltd., Mar 2021 – Jun 2024\nLed a team of five engineers building warehouse robots.',
  'Project: Emotional Companion AI Agent (Jan 2026 – Feb 2026)',
  'Designed the conversation memory and persona modules for the agent.',
  'Implemented the speech pipeline and the evaluation harness; the project reached ten thousand users.',
  'Passionate fast learner with strong communication skills, a team player who is self-motivated and detail-oriented.',
  'AWS Certified Solutions Architect, CET-6 certificate, IELTS 7.5',
].join('\n\n');

/** Bold pseudo-headers; each entry's title on its own line, its dates on the next. */
const titleLineResume = [
  '**SUMMARY**',
  'Detail-oriented backend engineer who enjoys turning prototypes into reliable services.',
  '**EXPERIENCE**',
  'Backend Developer — Nimbus Cloud Inc.\nJan 2019 – Dec 2020',
  'Built the billing services and the usage metering pipeline.',
  '**PROJECTS**',
  'Emotional Companion AI Agent',
  'Jan 2026 – Feb 2026 | Role: design, development',
  'Developing an emotional companion AI agent for programmers.',
  'Realtime Translation Glasses',
  'Mar 2025 – Sep 2025',
  'Prototype glasses that subtitle conversations in real time.',
  '**EDUCATION**',
  'Tsinghua University, B.Sc. in Computer Science',
  'Sep 2014 – Jun 2018',
].join('\n\n');

/** Chinese resume with 【】 headers on the first line of each block. */
const chineseResume = [
  '【基本信息】\n姓名：张三    性别：男    出生年月：1995年6月\n电话：138-0000-0000    邮箱：zhangsan@example.com',
  '【专业技能】\n熟练掌握Python、Java、C++，熟悉MySQL、Redis、Docker，了解Kubernetes与AWS。',
  '【工作经历】\n2019年7月 - 2021年6月    上海某某科技有限公司    后端开发工程师\n负责订单系统的设计与开发，日均处理百万级请求。',
  '【项目经历】\n智能客服系统    2021年3月 - 2022年6月\n角色：后端负责人\n负责系统架构设计与核心模块开发，使用Python和Redis实现了高并发消息队列。',
  '上线后客服效率提升40%，获得公司年度创新奖。',
  '模型训练平台    2022年7月 - 至今\n角色：技术负责人\n搭建分布式训练平台，支持百卡规模的模型训练。',
  '【证书】\n英语六级、计算机二级、PMP证书',
  '【自我评价】\n热爱学习，抗压能力强，工作效率高，具有良好的团队合作与沟通能力。',
].join('\n\n');

describe('structural chunker with the resume schema', () => {
  it('labels a Markdown resume and keeps a project told in three paragraphs in one chunk', async () => {
    const chunks = await structural(mdDoc(markdownResume, { id: 'Resume(Louis).md' }), { schema: 'resume' });
    expect(types(chunks)).toEqual(['basic', 'skills', 'self_evaluation', 'certification', 'experience', 'project', 'project']);
    const project = chunks[5]!;
    for (const p of PROJECT_PARAGRAPHS) expect(project.text).toContain(p);
    expect(chunks[6]!.text).toContain('Fleet Telemetry Dashboard');
    expect(chunks[6]!.text).not.toContain(PROJECT_PARAGRAPHS[2]);
  });

  it('labels a resume without any section titles by keyword and date density', async () => {
    const chunks = await structural(mdDoc(headerlessResume), { schema: 'resume' });
    expect(types(chunks)).toEqual(['basic', 'skills', 'experience', 'project', 'self_evaluation', 'certification']);
    expect(chunks[3]!.text).toContain('Designed the conversation memory');
    expect(chunks[3]!.text).toContain('Implemented the speech pipeline');
  });

  it('starts a new entry at a title line followed by its dates', async () => {
    const chunks = await structural(mdDoc(titleLineResume), { schema: 'resume' });
    expect(types(chunks)).toEqual(['self_evaluation', 'experience', 'project', 'project', 'education']);
    expect(chunks.map((c) => c.structured.title)).toEqual([
      'SUMMARY',
      'Backend Developer — Nimbus Cloud Inc.',
      'Emotional Companion AI Agent',
      'Realtime Translation Glasses',
      'Tsinghua University, B.Sc. in Computer Science',
    ]);
    expect(chunks[4]!.structured.period).toEqual({ from: '2014-09', to: '2018-06' });
  });

  it('labels a Chinese resume with 【】 headers and splits projects at their date lines', async () => {
    const chunks = await structural(mdDoc(chineseResume, { id: '简历-张三.md' }), { schema: 'resume' });
    expect(types(chunks)).toEqual(['basic', 'skills', 'experience', 'project', 'project', 'certification', 'self_evaluation']);
    const [first, second] = chunks.filter((c) => c.sectionType === 'project');
    expect(first!.text).toContain('上线后客服效率提升40%');
    expect(first!.structured).toMatchObject({
      section_type: 'project',
      title: '智能客服系统',
      period: { from: '2021-03', to: '2022-06' },
      role: ['后端负责人'],
      skills: ['python', 'redis'],
    });
    expect(second!.structured).toMatchObject({ title: '模型训练平台', period: { from: '2022-07', to: 'present' }, role: ['技术负责人'] });
    expect(chunks[2]!.structured.title).toBe('上海某某科技有限公司');
  });

  it("emits the seed's JSON shape with the source file and the pages the chunk spans", async () => {
    const cut = markdownResume.indexOf('### Emotional Companion AI Agent');
    const pageStarts = [0, cut + 20, markdownResume.indexOf(PROJECT_PARAGRAPHS[2]!)];
    const doc = mdDoc(markdownResume, { id: 'Resume(Louis).pdf', pageStarts });
    const chunks = await structural(doc, { schema: 'resume' });
    const project = chunks.find((c) => c.sectionType === 'project')!;
    expect(project.structured).toEqual({
      chunk_id: 'Resume(Louis).pdf#project_01',
      doc_id: 'Resume(Louis).pdf',
      section_type: 'project',
      title: 'Emotional Companion AI Agent',
      period: { from: '2026-01', to: '2026-02' },
      role: ['design', 'development', 'testing'],
      skills: ['python', 'js'],
      content: project.text.trim(),
      source: { file: 'Resume(Louis).pdf', page: [1, 2, 3] },
    });
    expect(chunks.find((c) => c.sectionType === 'skills')!.structured.source.page).toEqual([1]);
    // The exported formatter gives the same object for a chunk it is handed.
    expect(toStructuredJson(project, doc, builtinSectionSchema('resume'), 1)).toEqual(project.structured);
  });
});

describe('structural soft merge', () => {
  const skillsDoc = mdDoc(
    [
      '## Skills',
      'Python, Docker, Kubernetes, AWS, Linux, Redis',
      'Python, Docker, Kubernetes, AWS, Linux, Redis, MySQL',
      'Swift, iOS, Android, Kotlin',
    ].join('\n\n'),
  );

  it('merges adjacent same-type paragraphs whose embeddings have cosine above the threshold', async () => {
    const embedder = hashedEmbedder();
    const chunks = await structural(skillsDoc, { schema: 'resume', minChars: 1 }, { embedder });
    expect(embedder.calls).toBe(1);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.text).toContain('MySQL');
    expect(chunks[1]!.text.trim()).toBe('Swift, iOS, Android, Kotlin');
  });

  it('calls the embedder only when adjacent paragraphs share a type that may merge', async () => {
    const embedder = hashedEmbedder();
    await structural(mdDoc(markdownResume), { schema: 'resume' }, { embedder });
    expect(embedder.calls).toBe(0);
  });

  it('keeps them apart when the threshold is not reached', async () => {
    const chunks = await structural(skillsDoc, { schema: 'resume', minChars: 1, mergeThreshold: 0.999 }, { embedder: hashedEmbedder() });
    expect(chunks).toHaveLength(3);
  });

  it('falls back to TF-IDF without an embedder, using library statistics when given', async () => {
    const doc = mdDoc(
      ['## Skills', 'Rust, Golang, Kafka, gRPC, Envoy, etcd', 'Rust, Golang, Kafka, gRPC, Envoy, Consul'].join('\n\n'),
    );
    // Within the document every shared term is in both paragraphs (low IDF); the differing term dominates.
    const local = await structural(doc, { schema: 'resume', minChars: 1 });
    expect(local).toHaveLength(2);
    // Over a library where the shared terms are rare and the differing ones common, the pair is near-identical.
    const library = buildCorpusStats([
      ...Array.from({ length: 50 }, (_, i) => `etcd Consul note ${i}`),
      'Rust Golang Kafka gRPC Envoy',
    ]);
    const merged = await structural(doc, { schema: 'resume', minChars: 1 }, { corpus: library });
    expect(merged).toHaveLength(1);
  });

  it('never merges two dated entries, however similar', async () => {
    const doc = mdDoc(
      ['## Projects', 'Robot A 2020-01 – 2020-06 built in Python.', 'Robot B 2021-01 – 2021-06 built in Python.'].join('\n\n'),
    );
    const chunks = await structural(doc, { schema: 'resume' }, { embedder: hashedEmbedder() });
    expect(types(chunks)).toEqual(['project', 'project']);
  });
});

describe('structural chunker with the manual schema', () => {
  const manual = [
    '# RAC-225B Service Manual',
    '## Safety Information',
    'WARNING: Disconnect power before servicing. Risk of electric shock. Do not operate the unit with the cover removed.',
    '## Specifications',
    '| Item | Value |\n| --- | --- |\n| Rated voltage | 220-240 V |\n| Frequency | 50 Hz |\n| Fuse | 10 A |\n| Weight | 32 kg |',
    '## Installation',
    'Mount the bracket with four screws and keep 30 cm of clearance around the unit before you connect the cable.',
    '## Operation',
    'Press the MODE button to select cooling, heating or fan mode; the display shows the active setting.',
    '## Maintenance',
    'Clean the air filter every month and replace it every year; wipe dust from the grille.',
    '## Troubleshooting',
    '| Code | Cause | Solution |\n| --- | --- | --- |\n| E1 | Low refrigerant pressure | Check for leaks |\n| E4 | Water inlet blocked | Clean the hose, then reset |',
    'If the unit does not start, check the fuse and reset the breaker.',
    '## Warranty',
    'The limited warranty covers defects in materials for two years from the date of purchase. Keep the proof of purchase.',
  ].join('\n\n');

  it('labels the sections of a Markdown service manual', async () => {
    const chunks = await structural(mdDoc(manual, { id: 'rac-225b.md' }), { schema: 'manual' });
    expect(types(chunks)).toEqual(['safety', 'specifications', 'installation', 'operation', 'maintenance', 'troubleshooting', 'warranty']);
    const trouble = chunks.find((c) => c.sectionType === 'troubleshooting')!;
    expect(trouble.text).toContain('| E4 |');
    expect(trouble.text).toContain('If the unit does not start');
    expect(chunks[1]!.structured).toMatchObject({ section_type: 'specifications', title: 'Specifications', skills: [], period: { from: null, to: null } });
  });

  it('uses the manual schema by default', async () => {
    const chunks = await structural(mdDoc(manual));
    expect(types(chunks)).toContain('warranty');
  });

  it('labels a plain-text manual with upper-case titles and one without titles', async () => {
    const plain = [
      'SPECIFICATIONS',
      'Rated voltage 230 V, 50 Hz, power consumption 1200 W, weight 32 kg.',
      'TROUBLESHOOTING',
      'E4: the water inlet is blocked. Clean the hose and reset the unit.',
      'E7: fan motor fault. Restart; if the error persists, call service.',
      'WARRANTY',
      'This warranty is void if the unit was repaired by anyone other than an authorized service centre.',
    ].join('\n\n');
    expect(types(await structural(mdDoc(plain), { schema: 'manual', minChars: 1 }))).toEqual([
      'specifications',
      'troubleshooting',
      'troubleshooting',
      'warranty',
    ]);
    const untitled = [
      'Rated voltage 230 V, 50 Hz, power consumption 1200 W, weight 32 kg.',
      'Error E4 means the water inlet is blocked; check the hose and reset the unit.',
      'The limited warranty covers defects for two years with proof of purchase.',
    ].join('\n\n');
    expect(types(await structural(mdDoc(untitled), { schema: 'manual', minChars: 1 }))).toEqual([
      'specifications',
      'troubleshooting',
      'warranty',
    ]);
  });

  it('labels paragraphs that match nothing with the fallback type', async () => {
    const chunks = await structural(mdDoc('Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n'), { schema: 'manual' });
    expect(types(chunks)).toEqual(['other']);
    expect(chunks[0]!.structured.title).toBeNull();
  });
});
