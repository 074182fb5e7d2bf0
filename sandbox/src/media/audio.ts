// Audio outputs: the synthesised samples as 16-bit PCM WAV (written here, no encoder needed), or
// transcoded by ffmpeg to MP3 or Ogg Vorbis. Files go through a temp folder rather than pipes so
// the MP3 gets its Xing/LAME header, which lets players and the probe read an exact duration.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLE_RATE, synthesize } from './audio-synth';
import { runFfmpegOrThrow, withTempDir } from './ffmpeg';
import type { AudioSpec, RenderedMedia } from '../core/media-types';

const TIMEOUT_MS = 60_000;

/** A canonical 44-byte-header RIFF/WAVE file: PCM, mono, 16-bit. */
function encodeWav(samples: Float32Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // channels
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) {
    const sample = Math.max(-1, Math.min(1, samples[i] ?? 0));
    wav.writeInt16LE(Math.round(sample * 32767), 44 + i * 2);
  }
  return wav;
}

const CODECS = {
  mp3: { contentType: 'audio/mpeg', args: ['-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '9'] },
  ogg: { contentType: 'audio/ogg', args: ['-c:a', 'libvorbis', '-q:a', '4'] },
} as const;

export async function renderAudio(spec: AudioSpec): Promise<RenderedMedia> {
  const wav = encodeWav(synthesize(spec.style, spec.seed, spec.prompt, spec.seconds), SAMPLE_RATE);
  if (spec.format === 'wav') return { bytes: wav, contentType: 'audio/wav' };

  const codec = CODECS[spec.format];
  return withTempDir(async (dir) => {
    const input = join(dir, 'audio.wav');
    const output = join(dir, `audio.${spec.format}`);
    await writeFile(input, wav);
    // bitexact: no encoder version tag and a fixed Ogg stream serial, so the same spec gives the same bytes.
    await runFfmpegOrThrow(
      [
        '-loglevel',
        'error',
        '-i',
        input,
        ...codec.args,
        '-map_metadata',
        '-1',
        '-fflags',
        '+bitexact',
        '-flags:a',
        '+bitexact',
        output,
      ],
      TIMEOUT_MS,
    );
    return { bytes: await readFile(output), contentType: codec.contentType };
  });
}
