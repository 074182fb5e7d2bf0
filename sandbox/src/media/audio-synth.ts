// Pure TypeScript synthesis of the three audio styles, as mono float samples in [-1, 1]: 30 s take
// a few hundred milliseconds at most, with no encoder involved. Deterministic: every choice comes
// from the seed (and, for speech, from the prompt's words), never from the clock or Math.random.
import { createRng, type Rng } from './random';
import type { AudioSpec } from '../core/media-types';

export const SAMPLE_RATE = 22_050;
const TAU = Math.PI * 2;

const midiToHz = (note: number): number => 440 * 2 ** ((note - 69) / 12);

/**
 * Adds a note into the buffer: `wave` is called with hz * t (its phase in cycles; with hz = 1, the
 * time in seconds) in order, sample after sample, under an attack and exponential-decay envelope.
 */
function addNote(
  out: Float32Array,
  start: number,
  seconds: number,
  hz: number,
  gain: number,
  wave: (phase: number) => number,
  decay = 0.4,
  attack = 0.01,
): void {
  const first = Math.max(0, Math.round(start * SAMPLE_RATE));
  const last = Math.min(out.length, Math.round((start + seconds) * SAMPLE_RATE));
  const release = 0.03 * SAMPLE_RATE;
  const fall = Math.exp(-1 / (decay * SAMPLE_RATE));
  let level = gain;
  for (let i = first; i < last; i++) {
    const t = (i - first) / SAMPLE_RATE;
    const envelope = level * Math.min(1, t / attack, (last - i) / release);
    out[i] = (out[i] ?? 0) + envelope * wave(hz * t);
    level *= fall;
  }
}

const triangle = (phase: number): number => 1 - 4 * Math.abs(((phase + 0.25) % 1) - 0.5);
const bell = (phase: number): number =>
  Math.sin(TAU * phase) + 0.3 * Math.sin(TAU * 2 * phase) + 0.1 * Math.sin(TAU * 3 * phase);

const MODES: readonly (readonly number[])[] = [
  [0, 2, 4, 5, 7, 9, 11], // major
  [0, 2, 3, 5, 7, 8, 10], // natural minor
  [0, 2, 3, 5, 7, 9, 10], // dorian
  [0, 2, 4, 5, 7, 9, 10], // mixolydian
];
const PROGRESSIONS: readonly (readonly number[])[] = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [5, 3, 0, 4],
  [0, 3, 4, 3],
  [1, 4, 0, 0],
  [0, 6, 5, 4],
];

/** The chord tone (root, third or fifth of the chord on `root`, in any octave) nearest to `degree`. */
function nearestChordTone(degree: number, root: number, scaleLength: number): number {
  let best = root;
  for (let octave = -1; octave <= 3; octave++) {
    for (const step of [0, 2, 4]) {
      const candidate = root + step + octave * scaleLength;
      if (Math.abs(candidate - degree) < Math.abs(best - degree)) best = candidate;
    }
  }
  return best;
}

/** Kick drum: a sine whose pitch falls from 200 Hz to 50 Hz in a few tens of milliseconds. */
const kick = (t: number): number => Math.sin(TAU * (50 * t + 150 * 0.03 * (1 - Math.exp(-t / 0.03))));

/** A short piece: a chord progression as a pad, a bass line, a melody, and a light kick and hi-hat. */
function music(out: Float32Array, rng: Rng, noise: Rng): void {
  const seconds = out.length / SAMPLE_RATE;
  const mode = rng.pick(MODES);
  const tonic = rng.int(45, 56);
  const beat = 60 / rng.int(84, 132);
  const progression = rng.pick(PROGRESSIONS);
  const noteOf = (degree: number): number =>
    tonic +
    12 * Math.floor(degree / mode.length) +
    (mode[((degree % mode.length) + mode.length) % mode.length] ?? 0);

  let melody = rng.int(7, 11);
  for (let bar = 0; bar * 4 * beat < seconds; bar++) {
    const barStart = bar * 4 * beat;
    const root = progression[bar % progression.length] ?? 0;
    for (const offset of [0, 2, 4]) {
      addNote(out, barStart, 4 * beat + 0.2, midiToHz(noteOf(root + offset) + 12), 0.07, triangle, 3, 0.12);
    }
    for (let b = 0; b < 4; b++) {
      const at = barStart + b * beat;
      if (b % 2 === 0) {
        addNote(out, at, beat, midiToHz(noteOf(root) - 12), 0.3, triangle, 0.35);
        addNote(out, at, 0.25, 1, 0.35, kick, 0.08);
      }
      for (const half of [0, 0.5]) {
        // Hi-hat: a tick of noise on every half beat.
        addNote(out, at + half * beat, 0.05, 1, 0.05, () => noise.range(-1, 1), 0.015, 0.001);
        if (rng.chance(0.15)) continue;
        // Melody: a random walk over the scale, pulled to chord tones on the beat.
        melody += rng.pick([-2, -1, -1, 0, 1, 1, 2]);
        if (half === 0) melody = nearestChordTone(melody, root, mode.length);
        melody = Math.min(16, Math.max(5, melody));
        addNote(out, at + half * beat, beat * 0.9, midiToHz(noteOf(melody)), 0.16, bell, 0.35);
      }
    }
  }
}

/** A two-pole resonator (Klatt), the building block of formant synthesis. */
class Resonator {
  private y1 = 0;
  private y2 = 0;
  private a = 0;
  private b = 0;
  private c = 0;

  tune(frequency: number, bandwidth: number): void {
    this.c = -Math.exp((-TAU * bandwidth) / SAMPLE_RATE);
    this.b = 2 * Math.exp((-Math.PI * bandwidth) / SAMPLE_RATE) * Math.cos((TAU * frequency) / SAMPLE_RATE);
    this.a = 1 - this.b - this.c;
  }

  step(x: number): number {
    const y = this.a * x + this.b * this.y1 + this.c * this.y2;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

/** First three formants of a few vowels (Hz, adult voice). */
const VOWELS: Record<string, readonly [number, number, number]> = {
  a: [730, 1090, 2440],
  e: [530, 1840, 2480],
  i: [270, 2290, 3010],
  o: [570, 840, 2410],
  u: [300, 870, 2240],
  y: [400, 1900, 2500],
};

interface Syllable {
  start: number;
  seconds: number;
  formants: readonly [number, number, number];
  /** Seconds of fricative noise before the vowel. */
  onset: number;
  /** Pitch multiplier (stress, question rise). */
  pitch: number;
}

/**
 * Speech-like babble: a vowel per syllable of each prompt word, its formants applied by resonators
 * to a glottal pulse train, consonants as noise onsets, pauses between words and longer ones at
 * punctuation. The text is read again from the start if it is shorter than the clip.
 */
function speech(out: Float32Array, rng: Rng, noise: Rng, prompt: string): void {
  const seconds = out.length / SAMPLE_RATE;
  const words = prompt.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const script = words.length > 0 ? words : ['sandbox', 'voice', 'sample.'];
  const f0 = rng.range(95, 210);
  const formantScale = 1 + (f0 - 95) / 600;

  const syllables: Syllable[] = [];
  let time = 0.15;
  for (let w = 0; time < seconds; w = (w + 1) % script.length) {
    const word = script[w] ?? '';
    const letters = Array.from(word.toLowerCase()).filter((char) => /[\p{L}\p{N}]/u.test(char));
    const groups = word.toLowerCase().match(/[aeiouy]+/g) ?? [];
    // Words without Latin vowels (other scripts, digits) get a syllable per two characters.
    const count = Math.min(4, Math.max(1, groups.length || Math.ceil(letters.length / 2)));
    for (let s = 0; s < count; s++) {
      const vowel = groups[s]?.[0] ?? rng.pick(Object.keys(VOWELS));
      const onset = rng.chance(0.7) ? rng.range(0.02, 0.06) : 0;
      const length = rng.range(0.12, 0.24);
      syllables.push({
        start: time,
        seconds: length,
        formants: VOWELS[vowel] ?? [500, 1500, 2500],
        onset,
        pitch: (s === 0 ? 1.12 : 1) * (/\?$/.test(word) && s === count - 1 ? 1.3 : 1),
      });
      time += onset + length + rng.range(0.01, 0.04);
    }
    time += /[.!?]$/.test(word)
      ? rng.range(0.4, 0.6)
      : /[,;:]$/.test(word)
        ? rng.range(0.25, 0.35)
        : rng.range(0.06, 0.14);
    if (w === script.length - 1) time += 0.5;
  }

  const resonators = [new Resonator(), new Resonator(), new Resonator()];
  const bandwidths = [90, 110, 170];
  let phase = 0;
  let hiss = 0;
  let previous = 0;
  for (const syllable of syllables) {
    const first = Math.round(syllable.start * SAMPLE_RATE);
    const last = Math.min(
      out.length,
      Math.round((syllable.start + syllable.onset + syllable.seconds) * SAMPLE_RATE),
    );
    syllable.formants.forEach((f, k) => resonators[k]?.tune(f * formantScale, bandwidths[k] ?? 100));
    for (let i = first; i < last; i++) {
      const t = (i - first) / SAMPLE_RATE;
      let sample: number;
      if (t < syllable.onset) {
        // Fricative: high-passed noise, fading into the vowel.
        const white = noise.range(-1, 1);
        hiss = white - 0.7 * hiss;
        sample = 0.12 * hiss * Math.min(1, t / 0.01, (syllable.onset - t) / 0.01);
      } else {
        const v = t - syllable.onset;
        // Declination over the syllable and a slight vibrato keep the pitch from sounding robotic.
        const pitch =
          f0 * syllable.pitch * (1.05 - 0.1 * (v / syllable.seconds)) * (1 + 0.01 * Math.sin(TAU * 5.5 * v));
        phase = (phase + pitch / SAMPLE_RATE) % 1;
        const glottal = phase < 0.6 ? Math.sin((Math.PI * phase) / 0.6) ** 2 : 0;
        let voiced = glottal;
        for (const resonator of resonators) voiced = resonator.step(voiced);
        // Lip radiation (a first difference) lifts the upper formants, as in a real voice.
        const radiated = voiced - previous;
        previous = voiced;
        const envelope = Math.min(1, v / 0.02) * Math.min(1, (syllable.seconds - v) / 0.04);
        sample = 4 * radiated * Math.max(0, envelope);
      }
      out[i] = (out[i] ?? 0) + sample;
    }
  }
}

/** Sound effects: sweeps, noise bursts, zaps, impacts and bleeps over a low rumble. */
function sfx(out: Float32Array, rng: Rng, noise: Rng): void {
  const seconds = out.length / SAMPLE_RATE;
  let brown = 0;
  for (let i = 0; i < out.length; i++) {
    brown = 0.995 * brown + 0.02 * noise.range(-1, 1);
    out[i] = (out[i] ?? 0) + 0.3 * brown;
  }
  for (let at = rng.range(0, 0.3); at < seconds; at += rng.range(0.3, 1.2)) {
    switch (rng.int(0, 4)) {
      case 0: {
        // Exponential sweep up or down.
        const from = rng.range(150, 2500);
        const to = rng.range(150, 2500);
        const length = rng.range(0.3, 1.4);
        const k = Math.log(to / from) / length || 1e-9;
        addNote(
          out,
          at,
          length,
          1,
          0.5,
          (t) => Math.sin((TAU * from * (Math.exp(k * t) - 1)) / k),
          length / 2,
          0.05,
        );
        break;
      }
      case 1: {
        // Whoosh: noise through a one-pole low-pass whose cutoff falls.
        let state = 0;
        const length = rng.range(0.3, 0.9);
        addNote(
          out,
          at,
          length,
          1,
          0.9,
          (t) => {
            const cutoff = 0.5 * Math.exp(-4 * (t / length));
            state += cutoff * (noise.range(-1, 1) - state);
            return state;
          },
          length / 2,
          0.02,
        );
        break;
      }
      case 2: {
        // Zap: a fast falling square-ish chirp.
        const top = rng.range(1200, 3000);
        addNote(out, at, 0.25, 1, 0.25, (t) => Math.sign(Math.sin(TAU * top * t * (1 - t * 2))), 0.08, 0.002);
        break;
      }
      case 3:
        // Impact: a low thud with a dropping pitch and a click of noise.
        addNote(out, at, 0.5, 1, 0.8, (t) => Math.sin(TAU * 90 * t * (1 - t)), 0.15, 0.002);
        addNote(out, at, 0.04, 1, 0.4, () => noise.range(-1, 1), 0.01, 0.001);
        break;
      default: {
        // A few bleeps at random pitches.
        const count = rng.int(3, 6);
        for (let b = 0; b < count; b++) {
          addNote(out, at + b * 0.09, 0.07, midiToHz(rng.int(72, 96)), 0.2, triangle, 0.05, 0.003);
        }
      }
    }
  }
}

/** Scales to a fixed peak and fades the very ends, so clips never start or stop with a click. */
function master(out: Float32Array): void {
  let peak = 0;
  for (const sample of out) peak = Math.max(peak, Math.abs(sample));
  const gain = peak > 0 ? 0.85 / peak : 0;
  const fade = Math.min(out.length / 2, Math.round(0.01 * SAMPLE_RATE));
  for (let i = 0; i < out.length; i++) {
    const edge = Math.min(1, i / fade, (out.length - 1 - i) / fade);
    out[i] = (out[i] ?? 0) * gain * edge;
  }
}

export function synthesize(
  style: AudioSpec['style'],
  seed: string,
  prompt: string,
  seconds: number,
): Float32Array {
  const out = new Float32Array(Math.max(1, Math.round(seconds * SAMPLE_RATE)));
  // Noise has its own stream so that per-sample draws never shift the musical or rhythmic choices.
  const rng = createRng(seed, `audio-${style}`);
  const noise = createRng(seed, 'audio-noise');
  if (style === 'music') music(out, rng, noise);
  else if (style === 'speech') speech(out, rng, noise, prompt);
  else sfx(out, rng, noise);
  master(out);
  return out;
}
