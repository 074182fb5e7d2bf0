// How the sandbox renders each catalog asset the fixture points at (brand logos, tool and template
// covers, voice previews). Keys are the paths under /cdn/catalog/ that the HTTP layer makes absolute;
// validateFixture checks that every path the fixture references is here.
import type { MediaSpec } from '../media-types';
import { brandLogo, templateCover, toolCover, voicePreview } from './param-defs';

export type CatalogAsset = { kind: 'logo'; seed: string; text: string } | { kind: 'media'; spec: MediaSpec };

type Entry = [path: string, asset: CatalogAsset];

const logo = (brandId: string, text: string): Entry => [
  brandLogo(brandId),
  { kind: 'logo', seed: brandId, text },
];

const imageCover = (path: string, seed: string, prompt: string, height: 640 | 360): Entry => [
  path,
  { kind: 'media', spec: { kind: 'image', seed, prompt, width: 640, height, format: 'jpeg' } },
];

const toolImage = (slug: string, prompt: string) => imageCover(toolCover(slug), `tool:${slug}`, prompt, 360);

const templateImage = (slug: string, prompt: string) =>
  imageCover(templateCover(slug), `template:${slug}`, prompt, 640);

const templateVideo = (slug: string, prompt: string): Entry => [
  templateCover(slug, 'mp4'),
  {
    kind: 'media',
    spec: {
      kind: 'video',
      seed: `template:${slug}`,
      prompt,
      width: 640,
      height: 360,
      seconds: 4,
      format: 'mp4',
    },
  },
];

const voiceSample = (voiceId: string, prompt: string): Entry => [
  voicePreview(voiceId),
  {
    kind: 'media',
    spec: { kind: 'audio', seed: `voice:${voiceId}`, prompt, seconds: 3, style: 'speech', format: 'mp3' },
  },
];

export const catalogAssets: Record<string, CatalogAsset> = Object.fromEntries([
  logo('lumen-labs', 'LL'),
  logo('northwind-ai', 'NW'),
  logo('vireo-studio', 'VS'),
  logo('quillwave', 'QW'),
  logo('halcyon-motion', 'HM'),
  logo('echoform', 'EF'),
  logo('pixelmoss', 'PM'),

  voiceSample('aria', 'Hi, I am Aria. Warm and clear, for everyday narration.'),
  voiceSample('bram', 'Good evening, this is Bram. Calm and measured.'),
  voiceSample('cleo', 'Hey! Cleo here, bright and full of energy.'),
  voiceSample('dmitri', 'I am Dmitri. Every story deserves a deep voice.'),
  voiceSample('ines', 'Bonjour, je suis Inès. Soft and gentle.'),
  voiceSample('atlas', 'Atlas speaking. Steady for long chapters.'),
  voiceSample('juniper', 'Juniper here, friendly and relaxed.'),

  toolImage('remove-background', 'a sneaker on a checkerboard transparent background'),
  toolImage('upscale-4x', 'a blurry photo turning crisp, split screen'),
  toolImage('style-transfer', 'a city photo half repainted as a watercolour'),
  toolImage('portrait-enhance', 'a studio portrait with soft key light'),
  toolImage('animate-photo', 'a still lake photo with motion arrows'),
  toolImage('seamless-loop', 'an infinity sign made of film frames'),
  toolImage('talking-portrait', 'a portrait with a speech waveform'),
  toolImage('retro-vhs', 'a VHS tape with tracking lines'),
  toolImage('sky-replace', 'a dramatic sunset sky over rooftops'),
  toolImage('dream-clip', 'pastel dreamscape with floating petals'),

  templateImage('neon-city-poster', 'neon cyberpunk street poster in the rain'),
  templateImage('vintage-postcard', 'hand-tinted 1950s beach postcard'),
  templateImage('product-on-marble', 'a perfume bottle on white marble'),
  templateVideo('drone-flyover', 'aerial flight over misty mountains at sunrise'),
  templateVideo('living-portrait', 'a portrait that blinks and smiles'),
  templateImage('logo-mark', 'a minimal geometric logo mark'),
  templateImage('watercolor-pets', 'a watercolour sketch of a corgi'),
  templateVideo('cozy-rain-window', 'rain on a window at night with a warm lamp'),
  templateImage('dreamy-portraits', 'a dreamy pastel portrait'),
  templateVideo('instant-glow-up', 'a selfie with a soft glow and sparkles'),
  templateImage('endless-zoom', 'a recursive picture inside a picture'),
  templateImage('cinematic-portrait-rtl', 'a cinematic teal and orange portrait'),
  templateImage('sticker-sheet', 'a sheet of cute die-cut stickers'),
  templateImage('autumn-leaves-draft', 'golden autumn leaves swirling'),
  templateImage('cyber-samurai', 'a chrome samurai in neon rain'),
  templateImage('celebrity-lookalike', 'a blank portrait silhouette'),
  templateImage('holiday-card-2023', 'a snowy holiday card'),
  templateVideo('dream-trailer', 'a movie trailer title card with lens flare'),
]);
