// The sandbox's models: every category of api-notes §1, listed in the service's order. For categories other
// than image/default and video/text-ref the first model of the category is the recommended one.
// Brands and models are invented. Each version's typicalPrice is its pricing rate in the unit of its units.
import {
  IMAGE_RES_MULTIPLIER,
  VIDEO_RES_MULTIPLIER,
  aspectRatio,
  brandLogo,
  duration,
  enumParam,
  enumValuesParam,
  imageResolution,
  media,
  negativePrompt,
  numImages,
  param,
  toggle,
  version,
  videoResolution,
  voicePreview,
} from './param-defs';
import type { FixtureModel } from './types';

const brand = (id: string, name: string) => ({ id, name, logo: brandLogo(id) });

const BRANDS = {
  lumen: brand('lumen-labs', 'Lumen Labs'),
  northwind: brand('northwind-ai', 'Northwind AI'),
  vireo: brand('vireo-studio', 'Vireo Studio'),
  quillwave: brand('quillwave', 'Quillwave'),
  halcyon: brand('halcyon-motion', 'Halcyon Motion'),
  echoform: brand('echoform', 'Echoform Audio'),
  pixelmoss: brand('pixelmoss', 'Pixelmoss'),
};

const voice = (id: string, label: string, withPreview = true) => ({
  value: id,
  label,
  ...(withPreview ? { previewUrl: voicePreview(id) } : {}),
});

// ---------------------------------------------------------------- image / default

const imageDefault: FixtureModel[] = [
  {
    id: 'lumen-canvas',
    name: 'Lumen Canvas',
    type: 'image',
    subType: 'default',
    description:
      'General-purpose text-to-image with style presets, reference images and optional image-to-image from a source picture.',
    brand: BRANDS.lumen,
    promptRequired: true,
    promptMaxLength: 4000,
    params: [
      aspectRatio('1:1'),
      imageResolution('1K'),
      numImages(4),
      enumParam(
        'style',
        'Style',
        [
          { value: 'photographic', label: 'Photographic' },
          { value: 'watercolor', label: 'Watercolor' },
          { value: 'anime', label: 'Anime' },
          { value: 'oil-painting', label: 'Oil painting' },
          { value: 'pixel-art', label: 'Pixel art' },
        ],
        'photographic',
      ),
      media('image', 'image', 'Source image', false, {
        description: 'Optional starting image (image-to-image).',
      }),
      media('reference_images', 'image_urls', 'Style references', false, { constraints: { maxCount: 4 } }),
      negativePrompt(1000),
      toggle('enhance', 'Enhance', 'off'),
      enumValuesParam('advanced.guidance', 'Guidance', ['low', 'medium', 'high'], 'medium'),
    ],
    versions: [
      version(
        'lumen-canvas-v2',
        'v2',
        { typicalCredits: 4, unit: 'image' },
        {
          pricingKey: 'lumen-canvas/v2',
          rate: 4,
          units: { kind: 'count', param: 'num_images' },
          multipliers: { resolution: IMAGE_RES_MULTIPLIER },
          surcharges: { enhance: { on: 2 } },
        },
      ),
      version(
        'lumen-canvas-v3',
        'v3 HD',
        { typicalCredits: 6, unit: 'image', note: 'Enhance adds 2 credits per task' },
        {
          pricingKey: 'lumen-canvas/v3',
          rate: 6,
          units: { kind: 'count', param: 'num_images' },
          multipliers: { resolution: IMAGE_RES_MULTIPLIER },
          surcharges: { enhance: { on: 2 } },
        },
      ),
    ],
    tags: ['text-to-image', 'image-to-image', 'styles'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'auto' },
  },
  {
    id: 'northwind-aurora',
    name: 'Aurora XL',
    type: 'image',
    subType: 'default',
    description: 'Photorealistic stills with strong lighting; a reference image steers the look.',
    brand: BRANDS.northwind,
    promptRequired: true,
    promptMaxLength: 1500,
    params: [
      aspectRatio('16:9', ['1:1', '16:9', '9:16', '4:3', '3:4']),
      imageResolution('1K', ['1K', '2K']),
      numImages(2),
      media('image', 'image', 'Reference image', false),
      enumParam(
        'strength',
        'Reference strength',
        [
          { value: 'subtle', label: 'Subtle' },
          { value: 'balanced', label: 'Balanced' },
          { value: 'strong', label: 'Strong' },
        ],
        'balanced',
      ),
      // No displayName: the studio labels it by its id.
      param('seed', 'text', { maxLength: 10, default: '' }),
    ],
    versions: [
      version(
        'northwind-aurora-1',
        'Aurora XL 1.0',
        { typicalCredits: 3, unit: 'image' },
        {
          pricingKey: 'northwind-aurora/1.0',
          rate: 3,
          units: { kind: 'count', param: 'num_images' },
          multipliers: { resolution: { '1K': 1, '2K': 1.5 } },
        },
      ),
    ],
    tags: ['photoreal', 'text-to-image'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'jpeg' },
  },
  {
    id: 'pixelmoss-pop',
    name: 'Pop Diffusion',
    type: 'image',
    subType: 'default',
    description: 'Fast, cheap drafts in bright colours. Good for thumbnails and quick ideas.',
    brand: BRANDS.pixelmoss,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [
      aspectRatio('1:1', ['1:1', '4:3', '3:4']),
      imageResolution('512', ['512', '1K']),
      media('image', 'image', 'Starting image', false),
    ],
    versions: [
      version(
        'pixelmoss-pop-1',
        'Pop 1',
        { typicalCredits: 2, unit: 'image', note: 'Minimum 2 credits per task' },
        {
          pricingKey: 'pixelmoss-pop/1',
          rate: 2,
          units: { kind: 'count' },
          multipliers: { resolution: { '512': 0.5, '1K': 1 } },
          minPrice: 2,
        },
      ),
    ],
    tags: ['fast', 'drafts'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'auto' },
  },
  {
    id: 'pixelmoss-upscale',
    name: 'Upscale Pro',
    type: 'image',
    subType: 'default',
    description: 'Enlarges an image 2x or 4x and restores fine detail. A prompt is optional.',
    brand: BRANDS.pixelmoss,
    promptRequired: false,
    promptMaxLength: 1000,
    params: [
      media('image', 'image', 'Image to upscale', true),
      enumParam(
        'scale',
        'Scale',
        [
          { value: '2', label: '2x' },
          { value: '4', label: '4x' },
        ],
        '2',
      ),
    ],
    versions: [
      version(
        'pixelmoss-upscale-1',
        'Upscale 1',
        { typicalCredits: 3, unit: 'image', note: '4x costs double' },
        {
          pricingKey: 'pixelmoss-upscale/1',
          rate: 3,
          units: { kind: 'count' },
          multipliers: { scale: { '2': 1, '4': 2 } },
        },
      ),
    ],
    tags: ['upscale', 'enhance'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'auto', upscaleParam: 'image' },
  },
  {
    // Not public: never listed; raw submits get 403 model_not_public.
    id: 'lumen-canvas-labs',
    name: 'Lumen Canvas Labs (internal preview)',
    type: 'image',
    subType: 'default',
    description: 'Internal preview of the next Canvas generation.',
    brand: BRANDS.lumen,
    promptRequired: true,
    promptMaxLength: 4000,
    params: [aspectRatio('1:1'), imageResolution('1K')],
    versions: [
      version(
        'lumen-canvas-labs-0',
        'Preview',
        { typicalCredits: 8, unit: 'image' },
        { pricingKey: 'lumen-canvas-labs/0', rate: 8, units: { kind: 'count' } },
      ),
    ],
    tags: ['preview'],
    public: false,
    enabled: true,
    output: { kind: 'image', format: 'auto' },
  },
];

// ---------------------------------------------------------------- image / edit-image

const imageEdit: FixtureModel[] = [
  {
    id: 'northwind-inpaint',
    name: 'Inpaint',
    type: 'image',
    subType: 'edit-image',
    description: 'Repaints the masked region of a photo from a prompt, blending light and texture.',
    brand: BRANDS.northwind,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [
      media('image_url', 'image_url', 'Source image', true),
      media('mask_url', 'mask_url', 'Mask', true, { description: 'White areas are regenerated.' }),
      enumParam('fill_mode', 'Fill mode', ['replace', 'extend', 'remove'], 'replace'),
    ],
    versions: [
      version(
        'northwind-inpaint-1',
        'v1',
        { typicalCredits: 5, unit: 'image' },
        { pricingKey: 'northwind-inpaint/1', rate: 5, units: { kind: 'count' } },
      ),
      version(
        'northwind-inpaint-2',
        'v2 Precise',
        { typicalCredits: 7, unit: 'image' },
        { pricingKey: 'northwind-inpaint/2', rate: 7, units: { kind: 'count' } },
      ),
    ],
    tags: ['inpainting', 'mask'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'jpeg' },
  },
  {
    id: 'vireo-retouch',
    name: 'Retouch',
    type: 'image',
    subType: 'edit-image',
    description: 'Quick local fixes: remove objects, swap textures, fix blemishes inside a mask.',
    brand: BRANDS.vireo,
    promptRequired: true,
    promptMaxLength: 1000,
    params: [
      media('source_image', 'image_url', 'Photo', true),
      media('mask', 'mask_url', 'Area to change', true),
      enumParam(
        'feather',
        'Edge feather',
        [
          { value: 0, label: 'None' },
          { value: 8, label: 'Soft' },
          { value: 24, label: 'Very soft' },
        ],
        8,
      ),
    ],
    versions: [
      version(
        'vireo-retouch-1',
        'Retouch 1',
        { typicalCredits: 4, unit: 'image' },
        { pricingKey: 'vireo-retouch/1', rate: 4, units: { kind: 'count' } },
      ),
    ],
    tags: ['retouch', 'mask'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'auto' },
  },
  {
    // Background removal: the output keeps an alpha channel (the remove-background tool runs on it).
    id: 'vireo-cutout',
    name: 'Cutout',
    type: 'image',
    subType: 'edit-image',
    description:
      'Removes the background and keeps the subject on transparency. An optional mask marks what to keep.',
    brand: BRANDS.vireo,
    promptRequired: false,
    promptMaxLength: 300,
    params: [
      media('image_url', 'image_url', 'Photo', true),
      media('keep_mask', 'mask_url', 'Keep mask', false),
      enumParam('edge_mode', 'Edges', ['hard', 'soft'], 'soft'),
    ],
    versions: [
      version(
        'vireo-cutout-1',
        'Cutout 1',
        { typicalCredits: 2, unit: 'image' },
        { pricingKey: 'vireo-cutout/1', rate: 2, units: { kind: 'count' } },
      ),
    ],
    tags: ['background-removal', 'transparent'],
    public: true,
    enabled: true,
    output: { kind: 'image', format: 'png', transparent: true },
  },
];

// ---------------------------------------------------------------- image / image-svg

const imageSvg: FixtureModel[] = [
  {
    id: 'quill-vector',
    name: 'Vector',
    type: 'image',
    subType: 'image-svg',
    description: 'Clean, editable SVG illustrations and logos from text or a reference image.',
    brand: BRANDS.quillwave,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [
      enumParam(
        'style',
        'Style',
        [
          { value: 'flat', label: 'Flat' },
          { value: 'line-art', label: 'Line art' },
          { value: 'isometric', label: 'Isometric' },
          { value: 'glyph', label: 'Glyph' },
        ],
        'flat',
      ),
      enumParam('detail', 'Detail', ['standard', 'high'], 'standard'),
      aspectRatio('1:1', ['1:1', '4:3', '16:9']),
      // A type the spec does not name: the studio falls back to a text input with a note.
      param('background_color', 'color_hex', { displayName: 'Background colour', default: '#ffffff' }),
      param('brand_text', 'text', {
        displayName: 'Text in the artwork',
        constraints: { maxLength: 40 },
        default: '',
      }),
      media('reference_image', 'image_url', 'Reference image', false),
    ],
    versions: [
      version(
        'quill-vector-1',
        'v1',
        { typicalCredits: 8, unit: 'call' },
        {
          pricingKey: 'quill-vector/1',
          rate: 8,
          units: { kind: 'flat' },
          surcharges: { detail: { high: 4 } },
        },
      ),
      version(
        'quill-vector-1-5',
        'v1.5',
        { typicalCredits: 10, unit: 'call', note: 'High detail adds 4 credits' },
        {
          pricingKey: 'quill-vector/1.5',
          rate: 10,
          units: { kind: 'flat' },
          surcharges: { detail: { high: 4 } },
        },
      ),
    ],
    tags: ['svg', 'logo', 'illustration'],
    public: true,
    enabled: true,
    output: { kind: 'svg' },
  },
  {
    id: 'pixelmoss-icons',
    name: 'Iconsmith',
    type: 'image',
    subType: 'image-svg',
    description: 'Single SVG icons in a consistent grid, ready for an icon set.',
    brand: BRANDS.pixelmoss,
    promptRequired: true,
    promptMaxLength: 800,
    params: [
      enumValuesParam('palette', 'Palette', ['mono', 'duotone', 'vivid'], 'duotone'),
      param('icon_label', 'text', { displayName: 'Label', maxLength: 24, default: '' }),
    ],
    versions: [
      version(
        'pixelmoss-icons-1',
        'Iconsmith 1',
        { typicalCredits: 5, unit: 'call' },
        { pricingKey: 'pixelmoss-icons/1', rate: 5, units: { kind: 'flat' } },
      ),
    ],
    tags: ['svg', 'icons'],
    public: true,
    enabled: true,
    output: { kind: 'svg' },
  },
];

// ---------------------------------------------------------------- video / text-ref

const cameraMotion = (values: string[], defaultValue: string) =>
  // Dotted id, sent as that exact key; no displayName, so it is labelled by its id.
  enumParam('camera.motion', undefined, values, defaultValue);

const videoTextRef: FixtureModel[] = [
  {
    id: 'halcyon-dream',
    name: 'Dream',
    type: 'video',
    subType: 'text-ref',
    description: 'Cinematic text-to-video; up to four reference images guide style and characters.',
    brand: BRANDS.halcyon,
    promptRequired: true,
    promptMaxLength: 5000,
    params: [
      duration(['5', '10'], '5'),
      videoResolution('720p'),
      aspectRatio('16:9', ['16:9', '9:16', '1:1', '21:9']),
      media('reference_images', 'image_urls', 'Reference images', false, { constraints: { maxCount: 4 } }),
      cameraMotion(['static', 'pan-left', 'pan-right', 'dolly-in', 'orbit'], 'static'),
      toggle('enhance', 'Enhance', 'off'),
      negativePrompt(500),
    ],
    versions: [
      version(
        'halcyon-dream-1-5',
        '1.5 Turbo',
        { typicalCredits: 2.5, unit: 'second' },
        {
          pricingKey: 'halcyon-dream/1.5',
          rate: 2.5,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: VIDEO_RES_MULTIPLIER },
          surcharges: { enhance: { on: 3 } },
        },
      ),
      version(
        'halcyon-dream-2',
        '2.0',
        { typicalCredits: 4, unit: 'second', note: 'Enhance adds 3 credits' },
        {
          pricingKey: 'halcyon-dream/2.0',
          rate: 4,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: VIDEO_RES_MULTIPLIER },
          surcharges: { enhance: { on: 3 } },
        },
      ),
    ],
    tags: ['cinematic', 'text-to-video', 'references'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4' },
  },
  {
    id: 'northwind-reel',
    name: 'Reel',
    type: 'video',
    subType: 'text-ref',
    description: 'Short social clips in vertical or landscape format.',
    brand: BRANDS.northwind,
    promptRequired: true,
    promptMaxLength: 3000,
    params: [
      // Numeric durations (the other video models use strings).
      enumParam(
        'duration',
        'Duration',
        [
          { value: 4, label: '4 seconds' },
          { value: 8, label: '8 seconds' },
        ],
        4,
      ),
      videoResolution('720p', ['480p', '720p']),
      aspectRatio('9:16', ['16:9', '9:16']),
      media('style_reference', 'image', 'Style reference', false),
    ],
    versions: [
      version(
        'northwind-reel-1',
        'Reel 1',
        { typicalCredits: 3, unit: 'second', note: 'Plus 5 credits per clip' },
        {
          pricingKey: 'northwind-reel/1',
          rate: 3,
          units: { kind: 'duration', param: 'duration' },
          basePrice: 5,
          multipliers: { resolution: { '480p': 0.6, '720p': 1 } },
        },
      ),
    ],
    tags: ['social', 'vertical'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm' },
  },
  {
    id: 'lumen-motion',
    name: 'Lumen Motion',
    type: 'video',
    subType: 'text-ref',
    description: 'Budget text-to-video for storyboards and animatics.',
    brand: BRANDS.lumen,
    promptRequired: true,
    promptMaxLength: 2500,
    params: [
      enumValuesParam('duration', 'Duration', ['3', '6', '9'], '3'),
      videoResolution('480p'),
      aspectRatio('16:9'),
      cameraMotion(['static', 'handheld', 'crane-up'], 'handheld'),
    ],
    versions: [
      version(
        'lumen-motion-1',
        'Motion 1',
        { typicalCredits: 1.8, unit: 'second', note: 'Minimum 10 credits per clip' },
        {
          pricingKey: 'lumen-motion/1',
          rate: 1.8,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: VIDEO_RES_MULTIPLIER },
          minPrice: 10,
        },
      ),
    ],
    tags: ['budget', 'storyboard'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4' },
  },
  {
    // Disabled: 404 unknown_model; tools and templates bound to it are hidden.
    id: 'halcyon-dream-legacy',
    name: 'Dream 1.0 (retired)',
    type: 'video',
    subType: 'text-ref',
    description: 'The first Dream release, kept for old presets.',
    brand: BRANDS.halcyon,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [duration(['5'], '5'), aspectRatio('16:9', ['16:9', '9:16'])],
    versions: [
      version(
        'halcyon-dream-1-0',
        '1.0',
        { typicalCredits: 2, unit: 'second' },
        { pricingKey: 'halcyon-dream/1.0', rate: 2, units: { kind: 'duration', param: 'duration' } },
      ),
    ],
    tags: ['legacy'],
    public: true,
    enabled: false,
    output: { kind: 'video', format: 'mp4' },
  },
];

// ---------------------------------------------------------------- video / motion-control

const videoMotion: FixtureModel[] = [
  {
    id: 'halcyon-puppeteer',
    name: 'Puppeteer',
    type: 'video',
    subType: 'motion-control',
    description: 'Animates a character image with the motion of a reference video. The prompt is optional.',
    brand: BRANDS.halcyon,
    promptRequired: false,
    promptMaxLength: 2000,
    params: [
      media('character_image', 'image_url', 'Character image', true),
      media('motion_video', 'video_url', 'Motion reference', true),
      duration(['5', '10'], '5'),
      videoResolution('720p', ['720p', '1080p']),
    ],
    versions: [
      version(
        'halcyon-puppeteer-1',
        'Puppeteer 1',
        { typicalCredits: 3, unit: 'second' },
        {
          pricingKey: 'halcyon-puppeteer/1',
          rate: 3,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: { '720p': 1, '1080p': 1.6 } },
        },
      ),
    ],
    tags: ['motion-transfer', 'character'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4' },
  },
  {
    id: 'vireo-mimic',
    name: 'Mimic',
    type: 'video',
    subType: 'motion-control',
    description: 'Copies dance and gesture motion from a clip onto a still subject.',
    brand: BRANDS.vireo,
    promptRequired: false,
    promptMaxLength: 1000,
    params: [
      media('image', 'image', 'Subject', true),
      media('reference_video', 'video_url', 'Reference video', true),
      duration(['5', '8'], '5'),
    ],
    versions: [
      version(
        'vireo-mimic-1',
        'Mimic 1',
        { typicalCredits: 2, unit: 'second' },
        { pricingKey: 'vireo-mimic/1', rate: 2, units: { kind: 'duration', param: 'duration' } },
      ),
    ],
    tags: ['dance', 'motion-transfer'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm' },
  },
];

// ---------------------------------------------------------------- video / first-last-frame

const videoFirstLast: FixtureModel[] = [
  {
    id: 'lumen-keyframe',
    name: 'Keyframe',
    type: 'video',
    subType: 'first-last-frame',
    description: 'Animates from a start frame, optionally landing on an end frame.',
    brand: BRANDS.lumen,
    promptRequired: true,
    promptMaxLength: 2500,
    params: [
      media('first_frame', 'first_frame', 'First frame', true),
      media('last_frame', 'last_frame', 'Last frame', false),
      duration(['5', '10'], '5'),
      videoResolution('720p'),
    ],
    versions: [
      version(
        'lumen-keyframe-1',
        'Keyframe 1',
        { typicalCredits: 2.2, unit: 'second' },
        {
          pricingKey: 'lumen-keyframe/1',
          rate: 2.2,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: VIDEO_RES_MULTIPLIER },
        },
      ),
      version(
        'lumen-keyframe-2',
        'Keyframe 2',
        { typicalCredits: 3.2, unit: 'second' },
        {
          pricingKey: 'lumen-keyframe/2',
          rate: 3.2,
          units: { kind: 'duration', param: 'duration' },
          multipliers: { resolution: VIDEO_RES_MULTIPLIER },
        },
      ),
    ],
    tags: ['image-to-video', 'keyframes'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4' },
  },
  {
    id: 'halcyon-bridge',
    name: 'Bridge',
    type: 'video',
    subType: 'first-last-frame',
    description: 'Smooth transitions between two stills.',
    brand: BRANDS.halcyon,
    promptRequired: false,
    promptMaxLength: 2000,
    params: [
      media('start_image', 'first_frame', 'Start image', true),
      media('end_image', 'last_frame', 'End image', false),
      duration(['4', '8'], '4'),
    ],
    versions: [
      version(
        'halcyon-bridge-1',
        'Bridge 1',
        { typicalCredits: 3, unit: 'second' },
        { pricingKey: 'halcyon-bridge/1', rate: 3, units: { kind: 'duration', param: 'duration' } },
      ),
    ],
    tags: ['transition', 'image-to-video'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm' },
  },
];

// ---------------------------------------------------------------- video / audio-lipsync

const videoLipsync: FixtureModel[] = [
  {
    id: 'echoform-sync',
    name: 'LipSync',
    type: 'video',
    subType: 'audio-lipsync',
    description: 'Makes a portrait speak the given audio, with natural head motion.',
    brand: BRANDS.echoform,
    promptRequired: false,
    promptMaxLength: 1000,
    params: [
      media('portrait', 'image_url', 'Portrait', true),
      media('audio', 'audio_url', 'Speech audio', true),
      videoResolution('720p', ['480p', '720p']),
      enumParam(
        'expressiveness',
        'Expressiveness',
        [
          { value: 'calm', label: 'Calm' },
          { value: 'natural', label: 'Natural' },
          { value: 'animated', label: 'Animated' },
        ],
        'natural',
      ),
    ],
    versions: [
      version(
        'echoform-sync-1',
        'LipSync 1',
        { typicalCredits: 1.5, unit: 'second', note: 'Per second of input audio; minimum 5 credits' },
        {
          pricingKey: 'echoform-sync/1',
          rate: 1.5,
          units: { kind: 'input_duration', param: 'audio' },
          multipliers: { resolution: { '480p': 0.6, '720p': 1 } },
          minPrice: 5,
        },
      ),
    ],
    tags: ['lipsync', 'talking-head'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4', defaultSeconds: 5 },
  },
  {
    id: 'vireo-talk',
    name: 'Talking Head',
    type: 'video',
    subType: 'audio-lipsync',
    description: 'Front-facing presenter videos from one face photo and a voice track.',
    brand: BRANDS.vireo,
    promptRequired: false,
    promptMaxLength: 800,
    params: [media('face', 'image', 'Face image', true), media('speech', 'audio_url', 'Speech', true)],
    versions: [
      version(
        'vireo-talk-1',
        'Talk 1',
        { typicalCredits: 2, unit: 'second', note: 'Per second of input audio' },
        { pricingKey: 'vireo-talk/1', rate: 2, units: { kind: 'input_duration', param: 'speech' } },
      ),
    ],
    tags: ['presenter', 'lipsync'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm', defaultSeconds: 6 },
  },
];

// ---------------------------------------------------------------- video / extend-video

const videoExtend: FixtureModel[] = [
  {
    id: 'halcyon-extend',
    name: 'Extend',
    type: 'video',
    subType: 'extend-video',
    description: 'Continues a clip past its last frame, following the prompt.',
    brand: BRANDS.halcyon,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [
      media('video', 'video_url', 'Video to extend', true),
      videoResolution('720p', ['720p', '1080p']),
    ],
    versions: [
      version(
        'halcyon-extend-1',
        'Extend 1',
        { typicalCredits: 1, unit: 'second', note: 'Per second of input video, plus 3 credits' },
        {
          pricingKey: 'halcyon-extend/1',
          rate: 1,
          units: { kind: 'input_duration', param: 'video' },
          basePrice: 3,
          multipliers: { resolution: { '720p': 1, '1080p': 1.6 } },
        },
      ),
    ],
    tags: ['extend', 'continuation'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4', defaultSeconds: 5 },
  },
  {
    id: 'northwind-continue',
    name: 'Continue',
    type: 'video',
    subType: 'extend-video',
    description: 'Adds a few seconds to any clip; a prompt is optional.',
    brand: BRANDS.northwind,
    promptRequired: false,
    promptMaxLength: 1500,
    params: [
      media('source_video', 'video_url', 'Source video', true),
      enumParam(
        'extension',
        'Extension',
        [
          { value: 'short', label: 'Short (about 4 s)' },
          { value: 'long', label: 'Long (about 8 s)' },
        ],
        'short',
      ),
    ],
    versions: [
      version(
        'northwind-continue-1',
        'Continue 1',
        { typicalCredits: 1.4, unit: 'second', note: 'Per second of input video; minimum 6 credits' },
        {
          pricingKey: 'northwind-continue/1',
          rate: 1.4,
          units: { kind: 'input_duration', param: 'source_video' },
          surcharges: { extension: { long: 4 } },
          minPrice: 6,
        },
      ),
    ],
    tags: ['extend'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm', defaultSeconds: 4 },
  },
];

// ---------------------------------------------------------------- video / video-edit

const videoEdit: FixtureModel[] = [
  {
    id: 'vireo-restyle',
    name: 'Restyle',
    type: 'video',
    subType: 'video-edit',
    description: 'Restyles every frame of a clip while keeping its motion.',
    brand: BRANDS.vireo,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [
      media('video', 'video_url', 'Source video', true),
      enumParam(
        'style',
        'Style',
        [
          { value: 'original', label: 'Keep original look' },
          { value: 'anime', label: 'Anime' },
          { value: 'claymation', label: 'Claymation' },
          { value: 'film-noir', label: 'Film noir' },
          { value: 'vhs', label: 'VHS' },
        ],
        'anime',
      ),
      // No displayName: labelled by its id.
      toggle('loop', undefined, 'off'),
    ],
    versions: [
      version(
        'vireo-restyle-1',
        'Restyle 1',
        { typicalCredits: 0.05, unit: 'frame', note: 'Per input frame; minimum 10 credits' },
        {
          pricingKey: 'vireo-restyle/1',
          rate: 0.05,
          units: { kind: 'input_frames', param: 'video' },
          minPrice: 10,
        },
      ),
    ],
    tags: ['restyle', 'video-to-video'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'mp4', defaultSeconds: 4 },
  },
  {
    id: 'lumen-recolor',
    name: 'Recolor',
    type: 'video',
    subType: 'video-edit',
    description: 'Prompt-driven colour grading and relighting of existing footage.',
    brand: BRANDS.lumen,
    promptRequired: true,
    promptMaxLength: 1500,
    params: [
      media('input_video', 'video_url', 'Input video', true),
      enumParam('strength', 'Strength', ['0.3', '0.6', '0.9'], '0.6'),
    ],
    versions: [
      version(
        'lumen-recolor-1',
        'v1',
        { typicalCredits: 0.08, unit: 'frame' },
        { pricingKey: 'lumen-recolor/1', rate: 0.08, units: { kind: 'input_frames', param: 'input_video' } },
      ),
      version(
        'lumen-recolor-2',
        'v2',
        { typicalCredits: 0.12, unit: 'frame' },
        { pricingKey: 'lumen-recolor/2', rate: 0.12, units: { kind: 'input_frames', param: 'input_video' } },
      ),
    ],
    tags: ['grading', 'relight'],
    public: true,
    enabled: true,
    output: { kind: 'video', format: 'webm', defaultSeconds: 4 },
  },
];

// ---------------------------------------------------------------- audio / text-to-speech

const audioTts: FixtureModel[] = [
  {
    id: 'echoform-voice',
    name: 'Voice',
    type: 'audio',
    subType: 'text-to-speech',
    description: 'Natural speech in five studio voices and five languages. The prompt is the text spoken.',
    brand: BRANDS.echoform,
    promptRequired: true,
    promptMaxLength: 5000,
    params: [
      param('voice', 'voice', {
        displayName: 'Voice',
        required: true,
        default: 'aria',
        options: [
          voice('aria', 'Aria: warm, American English'),
          voice('bram', 'Bram: calm, British'),
          voice('cleo', 'Cleo: bright and young'),
          voice('dmitri', 'Dmitri: deep narrator'),
          voice('ines', 'Inès: soft, French accent'),
        ],
      }),
      enumParam('speed', 'Speed', ['0.8', '1.0', '1.2'], '1.0'),
      enumParam(
        'language',
        'Language',
        [
          { value: 'en', label: 'English' },
          { value: 'fr', label: 'French' },
          { value: 'es', label: 'Spanish' },
          { value: 'de', label: 'German' },
          { value: 'ja', label: 'Japanese' },
        ],
        'en',
      ),
    ],
    versions: [
      version(
        'echoform-voice-1',
        'Voice 1',
        { typicalCredits: 3, unit: '1k_chars', note: 'Minimum 2 credits' },
        { pricingKey: 'echoform-voice/1', rate: 3, units: { kind: 'chars', param: 'prompt' }, minPrice: 2 },
      ),
    ],
    tags: ['tts', 'multilingual'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'speech', format: 'mp3', defaultSeconds: 4 },
  },
  {
    id: 'quill-narrator',
    name: 'Narrator',
    type: 'audio',
    subType: 'text-to-speech',
    description: 'Long-form narration for audiobooks and explainers.',
    brand: BRANDS.quillwave,
    promptRequired: true,
    promptMaxLength: 3000,
    params: [
      param('voice', 'voice', {
        displayName: 'Voice',
        required: true,
        default: 'juniper',
        options: [
          voice('atlas', 'Atlas'),
          voice('juniper', 'Juniper'),
          // No preview: the picker shows no play button for it.
          voice('sol', 'Sol (no preview)', false),
        ],
      }),
      enumValuesParam('delivery', 'Delivery', ['neutral', 'cheerful', 'serious'], 'neutral'),
    ],
    versions: [
      version(
        'quill-narrator-std',
        'Standard',
        { typicalCredits: 2.4, unit: '1k_chars' },
        { pricingKey: 'quill-narrator/standard', rate: 2.4, units: { kind: 'chars', param: 'prompt' } },
      ),
      version(
        'quill-narrator-hd',
        'HD',
        { typicalCredits: 4, unit: '1k_chars' },
        { pricingKey: 'quill-narrator/hd', rate: 4, units: { kind: 'chars', param: 'prompt' } },
      ),
    ],
    tags: ['tts', 'narration'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'speech', format: 'wav', defaultSeconds: 6 },
  },
];

// ---------------------------------------------------------------- audio / voice-clone

const audioClone: FixtureModel[] = [
  {
    id: 'echoform-twin',
    name: 'Twin',
    type: 'audio',
    subType: 'voice-clone',
    description: 'Speaks the prompt in the voice of an uploaded sample.',
    brand: BRANDS.echoform,
    promptRequired: true,
    promptMaxLength: 4000,
    params: [
      media('voice_sample', 'audio_url', 'Voice sample', true, {
        description: '10 to 60 seconds of clean speech.',
      }),
      enumParam('similarity', 'Similarity', ['balanced', 'high'], 'balanced'),
    ],
    versions: [
      version(
        'echoform-twin-1',
        'Twin 1',
        { typicalCredits: 6, unit: '1k_chars', note: 'Minimum 2 credits; high similarity adds 1' },
        {
          pricingKey: 'echoform-twin/1',
          rate: 6,
          units: { kind: 'chars', param: 'prompt' },
          surcharges: { similarity: { high: 1 } },
          minPrice: 2,
        },
      ),
    ],
    tags: ['voice-clone'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'speech', format: 'mp3', defaultSeconds: 4 },
  },
  {
    id: 'northwind-echo',
    name: 'Echo Clone',
    type: 'audio',
    subType: 'voice-clone',
    description: 'Fast voice cloning from a short sample.',
    brand: BRANDS.northwind,
    promptRequired: true,
    promptMaxLength: 2000,
    params: [media('sample_audio', 'audio_url', 'Sample audio', true)],
    versions: [
      version(
        'northwind-echo-1',
        'Echo 1',
        { typicalCredits: 5, unit: '1k_chars' },
        { pricingKey: 'northwind-echo/1', rate: 5, units: { kind: 'chars', param: 'prompt' } },
      ),
    ],
    tags: ['voice-clone', 'fast'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'speech', format: 'ogg', defaultSeconds: 4 },
  },
];

// ---------------------------------------------------------------- audio / sound-effect

const audioSfx: FixtureModel[] = [
  {
    id: 'echoform-foley',
    name: 'Foley',
    type: 'audio',
    subType: 'sound-effect',
    description: 'Sound effects from a description: footsteps, doors, weather, UI sounds.',
    brand: BRANDS.echoform,
    promptRequired: true,
    promptMaxLength: 1000,
    params: [duration(['2', '5', '10'], '5'), toggle('loopable', 'Seamless loop', 'off')],
    versions: [
      version(
        'echoform-foley-1',
        'Foley 1',
        { typicalCredits: 3, unit: 'call', note: '10-second effects add 2 credits' },
        {
          pricingKey: 'echoform-foley/1',
          rate: 3,
          units: { kind: 'flat' },
          surcharges: { duration: { '10': 2 } },
        },
      ),
    ],
    tags: ['sfx', 'foley'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'sfx', format: 'wav' },
  },
  {
    id: 'pixelmoss-blips',
    name: 'Blips',
    type: 'audio',
    subType: 'sound-effect',
    description: 'Tiny game and interface sounds. Short prompts only.',
    brand: BRANDS.pixelmoss,
    promptRequired: true,
    promptMaxLength: 500,
    params: [enumParam('character', 'Character', ['retro', 'soft', 'punchy'], 'retro')],
    versions: [
      version(
        'pixelmoss-blips-1',
        'Blips 1',
        { typicalCredits: 1, unit: 'call' },
        { pricingKey: 'pixelmoss-blips/1', rate: 1, units: { kind: 'flat' } },
      ),
    ],
    tags: ['sfx', 'game', 'ui'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'sfx', format: 'ogg', defaultSeconds: 2 },
  },
];

// ---------------------------------------------------------------- audio / music

const audioMusic: FixtureModel[] = [
  {
    id: 'quill-composer',
    name: 'Composer',
    type: 'audio',
    subType: 'music',
    description: 'Full tracks with optional lyrics, in a chosen genre.',
    brand: BRANDS.quillwave,
    promptRequired: true,
    promptMaxLength: 3000,
    params: [
      duration(['15', '30', '60'], '30'),
      enumParam(
        'genre',
        'Genre',
        [
          { value: 'ambient', label: 'Ambient' },
          { value: 'lofi', label: 'Lo-fi' },
          { value: 'orchestral', label: 'Orchestral' },
          { value: 'synthwave', label: 'Synthwave' },
          { value: 'acoustic', label: 'Acoustic' },
        ],
        'ambient',
      ),
      param('lyrics', 'long_text', { displayName: 'Lyrics', maxLength: 2000, default: '' }),
      param('title', 'text', { displayName: 'Title', maxLength: 80, default: '' }),
      toggle('stems', 'Separate stems', 'off'),
    ],
    versions: [
      version(
        'quill-composer-1',
        'v1',
        { typicalCredits: 0.4, unit: 'second' },
        {
          pricingKey: 'quill-composer/1',
          rate: 0.4,
          units: { kind: 'duration', param: 'duration' },
          surcharges: { stems: { on: 4 } },
        },
      ),
      version(
        'quill-composer-2',
        'v2',
        { typicalCredits: 0.6, unit: 'second', note: 'Stems add 4 credits' },
        {
          pricingKey: 'quill-composer/2',
          rate: 0.6,
          units: { kind: 'duration', param: 'duration' },
          surcharges: { stems: { on: 4 } },
        },
      ),
    ],
    tags: ['music', 'lyrics'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'music', format: 'mp3' },
  },
  {
    id: 'echoform-score',
    name: 'Score',
    type: 'audio',
    subType: 'music',
    description: 'Thirty-second instrumental cues by mood.',
    brand: BRANDS.echoform,
    promptRequired: true,
    promptMaxLength: 1200,
    params: [enumParam('mood', 'Mood', ['uplifting', 'tense', 'melancholic', 'playful'], 'uplifting')],
    versions: [
      version(
        'echoform-score-1',
        'Score 1',
        { typicalCredits: 12, unit: 'call' },
        { pricingKey: 'echoform-score/1', rate: 12, units: { kind: 'flat' } },
      ),
    ],
    tags: ['music', 'instrumental'],
    public: true,
    enabled: true,
    output: { kind: 'audio', audio: 'music', format: 'wav', defaultSeconds: 30 },
  },
];

export const models: FixtureModel[] = [
  ...imageDefault,
  ...imageEdit,
  ...imageSvg,
  ...videoTextRef,
  ...videoMotion,
  ...videoFirstLast,
  ...videoLipsync,
  ...videoExtend,
  ...videoEdit,
  ...audioTts,
  ...audioClone,
  ...audioSfx,
  ...audioMusic,
];
