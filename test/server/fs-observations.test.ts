/**
 * The compiler's file-system observations are checked again before a stored conversion (or a snapshot's
 * program) is used. Existence probes are checked by their directory's stamp while the directory is unchanged:
 * these tests count the probes asked again, and change the file system under each kind of observation to see
 * that a changed answer is still caught.
 */
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FileSystemObservations, type Observation, type ObservedSystem } from '../../kernel/src/server/kernel/fs-observations.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'nighthawk-observations-'));
const settled = path.join(scratch, 'settled');
const linked = path.join(scratch, 'linked');
const targets = path.join(scratch, 'targets');

beforeAll(async () => {
  mkdirSync(path.join(settled, 'sub'), { recursive: true });
  writeFileSync(path.join(settled, 'a.d.ts'), 'declare const a: 1;');
  mkdirSync(linked);
  mkdirSync(targets);
  writeFileSync(path.join(targets, 'target.d.ts'), '');
  symlinkSync(path.join(targets, 'target.d.ts'), path.join(linked, 'link.d.ts'));
  writeFileSync(path.join(linked, 'plain.d.ts'), '');
  // A directory is trusted only once it has been unchanged for two seconds (its change time cannot be set back).
  await new Promise((resolve) => setTimeout(resolve, 2_100));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Real files, as TypeScript's `sys` sees them, counting the existence probes made of the real file system. */
function countingSystem(): { sys: ObservedSystem; probes: string[] } {
  const probes: string[] = [];
  const sys: ObservedSystem = {
    readFile: (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
    fileExists: (p) => {
      probes.push(p);
      return fs.existsSync(p) && fs.statSync(p).isFile();
    },
    directoryExists: (p) => {
      probes.push(p);
      return fs.existsSync(p) && fs.statSync(p).isDirectory();
    },
    getDirectories: (p) => fs.readdirSync(p, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name),
    readDirectory: (p) => fs.readdirSync(p),
    realpath: (p) => fs.realpathSync(p),
  };
  return { sys, probes };
}

/** Observations made by `probe` on a fresh recorder, and a check of them counting the probes it asks again. */
function observe(probe: (sys: ObservedSystem) => void): { check: () => { holds: boolean; asked: string[] }; manifest: Observation[]; recorder: FileSystemObservations } {
  const { sys, probes } = countingSystem();
  const recorder = new FileSystemObservations(sys);
  probe(sys);
  const manifest = JSON.parse(recorder.manifest().json) as Observation[];
  return {
    manifest,
    recorder,
    check: () => {
      probes.length = 0;
      const holds = recorder.holds(manifest);
      return { holds, asked: [...probes] };
    },
  };
}

describe('file-system observations', () => {
  test('probes in a directory unchanged since it was noted hold without being asked again; a change there is caught', () => {
    const missing = path.join(settled, 'missing.d.ts');
    const { check } = observe((sys) => {
      expect(sys.fileExists(path.join(settled, 'a.d.ts'))).toBe(true);
      expect(sys.fileExists(missing)).toBe(false);
      expect(sys.directoryExists(path.join(settled, 'sub'))).toBe(true);
      expect(sys.directoryExists(path.join(settled, 'nope'))).toBe(false);
    });
    expect(check()).toEqual({ holds: true, asked: [] });
    writeFileSync(missing, '');
    try {
      // The directory changed: each of its probes is asked, and the one that now finds a file fails the check.
      const after = check();
      expect(after.holds).toBe(false);
      expect(after.asked).toContain(missing);
    } finally {
      rmSync(missing);
    }
    // Changed back, but not to the stamp it was noted with: asked one by one, and every answer is as observed.
    const again = check();
    expect(again.holds).toBe(true);
    expect(again.asked.length).toBeGreaterThan(0);
  });

  test('a symbolic link in an unchanged directory is asked each time: its target changes without the directory', () => {
    const link = path.join(linked, 'link.d.ts');
    const { check } = observe((sys) => {
      expect(sys.fileExists(link)).toBe(true);
      expect(sys.fileExists(path.join(linked, 'plain.d.ts'))).toBe(true);
    });
    expect(check()).toEqual({ holds: true, asked: [link] });
    rmSync(path.join(targets, 'target.d.ts'));
    try {
      expect(check()).toEqual({ holds: false, asked: [link] });
    } finally {
      writeFileSync(path.join(targets, 'target.d.ts'), '');
    }
  });

  test('a directory changed just before it was noted is not trusted: its probes are asked', () => {
    const fresh = path.join(scratch, 'fresh');
    mkdirSync(fresh);
    const { check } = observe((sys) => expect(sys.fileExists(path.join(fresh, 'x.d.ts'))).toBe(false));
    expect(check()).toEqual({ holds: true, asked: [path.join(fresh, 'x.d.ts')] });
    writeFileSync(path.join(fresh, 'x.d.ts'), '');
    expect(check().holds).toBe(false);
  });

  test('a directory noted missing answers for the probes that found nothing in it, until it appears', () => {
    const absent = path.join(scratch, 'absent');
    const { check } = observe((sys) => {
      expect(sys.fileExists(path.join(absent, 'index.d.ts'))).toBe(false);
      expect(sys.directoryExists(path.join(absent, 'lib'))).toBe(false);
    });
    expect(check()).toEqual({ holds: true, asked: [] });
    mkdirSync(path.join(absent, 'lib'), { recursive: true });
    const after = check();
    expect(after.holds).toBe(false);
    expect(after.asked).toContain(path.join(absent, 'lib'));
  });

  test('observations stored without directory notes (by an earlier version) are still checked, one probe at a time', () => {
    const { manifest, recorder } = observe((sys) => expect(sys.fileExists(path.join(settled, 'a.d.ts'))).toBe(true));
    const withoutNotes = manifest.filter(([key]) => !key.startsWith('parent\0'));
    expect(withoutNotes.length).toBeLessThan(manifest.length);
    expect(recorder.holds(withoutNotes)).toBe(true);
    expect(recorder.holds([...withoutNotes, [`exists\0${path.join(settled, 'a.d.ts')}`, '0']])).toBe(false);
  });
});
