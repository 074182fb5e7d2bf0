// The sandbox's stand-in for the vision model behind POST /describe-image. It has no model, so it
// really measures the image with sharp (size, alpha, tones, colours, texture) and turns the
// measurements into a plausible, deterministic description, written in the requested language from
// per-language phrase tables, so the studio's describe flow shows results that fit the picture.
import sharp from 'sharp';
import type { DescribeLanguage, ImageDescription } from '../../../contract/describe';

export type DescribeResult = Omit<ImageDescription, 'credits'>;

type SubjectKey =
  | 'cutout'
  | 'flatField'
  | 'gradient'
  | 'abstract'
  | 'graphic'
  | 'texture'
  | 'scene'
  | 'outdoorScene'
  | 'generic';
type StyleKey =
  'flat' | 'softGradient' | 'graphic' | 'highContrastGraphic' | 'detailedTexture' | 'photographic';
type AspectKey = 'square' | 'landscape' | 'portrait' | 'panoramic' | 'tallPanoramic';
type PlacementKey =
  | 'even'
  | 'center'
  | 'left'
  | 'right'
  | 'top'
  | 'bottom'
  | 'topLeft'
  | 'topRight'
  | 'bottomLeft'
  | 'bottomRight';
type LightKey = 'lowKey' | 'dim' | 'balanced' | 'bright' | 'highKey';
type ContrastKey = 'soft' | 'moderate' | 'hard';
type TemperatureKey = 'warm' | 'cool' | 'neutral';
type SaturationKey = 'monochrome' | 'muted' | 'moderate' | 'vivid';
type MoodKey = 'dramatic' | 'somber' | 'energetic' | 'calm' | 'joyful' | 'airy';
type AngleKey = 'eyeLevel' | 'topDown';
type FocusKey = 'shallow' | 'deep';

interface Rgb {
  r: number;
  g: number;
  b: number;
}

// The colour table: nearest entry (perceptually weighted RGB distance) names a colour.
const COLOURS = {
  black: { r: 0, g: 0, b: 0 },
  gray: { r: 128, g: 128, b: 128 },
  lightGray: { r: 200, g: 200, b: 200 },
  white: { r: 255, g: 255, b: 255 },
  red: { r: 220, g: 20, b: 30 },
  darkRed: { r: 128, g: 0, b: 0 },
  orange: { r: 255, g: 140, b: 0 },
  yellow: { r: 255, g: 220, b: 0 },
  olive: { r: 128, g: 128, b: 0 },
  green: { r: 40, g: 170, b: 60 },
  darkGreen: { r: 0, g: 90, b: 30 },
  darkGray: { r: 60, g: 64, b: 70 },
  darkBlue: { r: 25, g: 45, b: 90 },
  teal: { r: 0, g: 128, b: 128 },
  cyan: { r: 0, g: 220, b: 230 },
  blue: { r: 30, g: 80, b: 220 },
  navy: { r: 0, g: 0, b: 128 },
  purple: { r: 128, g: 0, b: 160 },
  magenta: { r: 220, g: 0, b: 200 },
  pink: { r: 255, g: 160, b: 190 },
  brown: { r: 130, g: 80, b: 30 },
  beige: { r: 230, g: 210, b: 170 },
} as const satisfies Record<string, Rgb>;
type ColourKey = keyof typeof COLOURS;
const COLOUR_KEYS = Object.keys(COLOURS) as ColourKey[];

interface Phrases {
  subject: Record<SubjectKey, string>;
  style: Record<StyleKey, string>;
  aspect: Record<AspectKey, string>;
  placement: Record<PlacementKey, string>;
  light: Record<LightKey, string>;
  contrast: Record<ContrastKey, string>;
  colour: Record<ColourKey, string>;
  temperature: Record<TemperatureKey, string>;
  saturation: Record<SaturationKey, string>;
  mood: Record<MoodKey, string>;
  angle: Record<AngleKey, string>;
  focus: Record<FocusKey, string>;
  dominantLabel: string;
  accentLabel: string;
  moodLabel: string;
  cameraLabel: string;
  /** Unit after the focal length. */
  mm: string;
  /** Between the parts of one field. */
  listSep: string;
  /** Between the fields in overallDescription. */
  sep: string;
  colon: string;
  open: string;
  close: string;
  end: string;
}

const PHRASES: Record<DescribeLanguage, Phrases> = {
  en: {
    subject: {
      cutout: 'an isolated subject cut out on a transparent background',
      flatField: 'a uniform field of solid colour',
      gradient: 'a smooth colour gradient',
      abstract: 'an abstract composition of simple shapes',
      graphic: 'a graphic illustration with clean shapes and flat areas',
      texture: 'a close-up of a richly detailed texture',
      scene: 'a photographic scene',
      outdoorScene: 'an outdoor scene with a bright sky area above',
      generic: 'an image',
    },
    style: {
      flat: 'flat minimalist style without texture',
      softGradient: 'soft gradient style with smooth tonal transitions',
      graphic: 'clean graphic style with crisp edges',
      highContrastGraphic: 'high-contrast graphic style with bold edges',
      detailedTexture: 'detailed finely textured style',
      photographic: 'natural photographic style',
    },
    aspect: {
      square: 'square format',
      landscape: 'landscape format',
      portrait: 'portrait format',
      panoramic: 'panoramic format',
      tallPanoramic: 'tall vertical format',
    },
    placement: {
      even: 'brightness evenly distributed',
      center: 'brightest area in the centre',
      left: 'brightest area on the left',
      right: 'brightest area on the right',
      top: 'brightest area at the top',
      bottom: 'brightest area at the bottom',
      topLeft: 'brightest area in the upper left',
      topRight: 'brightest area in the upper right',
      bottomLeft: 'brightest area in the lower left',
      bottomRight: 'brightest area in the lower right',
    },
    light: {
      lowKey: 'low-key dark lighting',
      dim: 'dim subdued lighting',
      balanced: 'balanced natural lighting',
      bright: 'bright lighting',
      highKey: 'high-key luminous lighting',
    },
    contrast: {
      soft: 'soft even light',
      moderate: 'moderate contrast',
      hard: 'hard light with strong contrast',
    },
    colour: {
      black: 'black',
      gray: 'grey',
      lightGray: 'light grey',
      white: 'white',
      red: 'red',
      darkRed: 'dark red',
      orange: 'orange',
      yellow: 'yellow',
      olive: 'olive',
      green: 'green',
      darkGreen: 'dark green',
      darkGray: 'dark grey',
      darkBlue: 'dark blue',
      teal: 'teal',
      cyan: 'cyan',
      blue: 'blue',
      navy: 'navy blue',
      purple: 'purple',
      magenta: 'magenta',
      pink: 'pink',
      brown: 'brown',
      beige: 'beige',
    },
    temperature: { warm: 'warm tones', cool: 'cool tones', neutral: 'neutral tones' },
    saturation: {
      monochrome: 'monochrome desaturated colours',
      muted: 'muted colours',
      moderate: 'moderately saturated colours',
      vivid: 'vivid saturated colours',
    },
    mood: {
      dramatic: 'dramatic and intense',
      somber: 'mysterious and sombre',
      energetic: 'energetic and lively',
      calm: 'calm and understated',
      joyful: 'joyful and vibrant',
      airy: 'airy and serene',
    },
    angle: { eyeLevel: 'eye-level', topDown: 'top-down view' },
    focus: { shallow: 'shallow depth of field', deep: 'deep focus' },
    dominantLabel: 'dominant colour',
    accentLabel: 'accent',
    moodLabel: 'mood',
    cameraLabel: 'camera',
    mm: 'mm',
    listSep: ', ',
    sep: ', ',
    colon: ': ',
    open: ' (',
    close: ')',
    end: '.',
  },
  zh: {
    subject: {
      cutout: '透明背景上的独立抠图主体',
      flatField: '一片均匀的纯色区域',
      gradient: '平滑的色彩渐变',
      abstract: '由简单形状构成的抽象构图',
      graphic: '线条简洁、色块平整的图形插画',
      texture: '细节丰富的纹理特写',
      scene: '一幅摄影场景',
      outdoorScene: '上方有明亮天空的户外场景',
      generic: '一幅图像',
    },
    style: {
      flat: '无纹理的扁平极简风格',
      softGradient: '过渡平滑的柔和渐变风格',
      graphic: '边缘清晰的简洁图形风格',
      highContrastGraphic: '边缘醒目的高对比度图形风格',
      detailedTexture: '细节丰富、纹理细腻的风格',
      photographic: '自然的摄影风格',
    },
    aspect: {
      square: '方形构图',
      landscape: '横向构图',
      portrait: '竖向构图',
      panoramic: '全景宽幅构图',
      tallPanoramic: '超长竖幅构图',
    },
    placement: {
      even: '亮度分布均匀',
      center: '最亮区域位于中央',
      left: '最亮区域位于左侧',
      right: '最亮区域位于右侧',
      top: '最亮区域位于上方',
      bottom: '最亮区域位于下方',
      topLeft: '最亮区域位于左上方',
      topRight: '最亮区域位于右上方',
      bottomLeft: '最亮区域位于左下方',
      bottomRight: '最亮区域位于右下方',
    },
    light: {
      lowKey: '低调暗光',
      dim: '昏暗柔和的光线',
      balanced: '均衡自然的光线',
      bright: '明亮的光线',
      highKey: '高调明亮的光线',
    },
    contrast: { soft: '柔和均匀的光', moderate: '中等对比度', hard: '对比强烈的硬光' },
    colour: {
      black: '黑色',
      gray: '灰色',
      lightGray: '浅灰色',
      white: '白色',
      red: '红色',
      darkRed: '深红色',
      orange: '橙色',
      yellow: '黄色',
      olive: '橄榄色',
      green: '绿色',
      darkGreen: '深绿色',
      darkGray: '深灰色',
      darkBlue: '深蓝色',
      teal: '青绿色',
      cyan: '青色',
      blue: '蓝色',
      navy: '藏青色',
      purple: '紫色',
      magenta: '品红色',
      pink: '粉色',
      brown: '棕色',
      beige: '米色',
    },
    temperature: { warm: '暖色调', cool: '冷色调', neutral: '中性色调' },
    saturation: {
      monochrome: '单色低饱和',
      muted: '柔和低饱和的色彩',
      moderate: '中等饱和度',
      vivid: '鲜艳饱和的色彩',
    },
    mood: {
      dramatic: '戏剧性而强烈',
      somber: '神秘而深沉',
      energetic: '充满活力',
      calm: '平静内敛',
      joyful: '欢快明艳',
      airy: '轻盈宁静',
    },
    angle: { eyeLevel: '平视角度', topDown: '俯拍视角' },
    focus: { shallow: '浅景深', deep: '大景深' },
    dominantLabel: '主色',
    accentLabel: '点缀色',
    moodLabel: '氛围',
    cameraLabel: '镜头',
    mm: 'mm',
    listSep: '、',
    sep: '，',
    colon: '：',
    open: '（',
    close: '）',
    end: '。',
  },
  'zh-TW': {
    subject: {
      cutout: '透明背景上的獨立去背主體',
      flatField: '一片均勻的純色區域',
      gradient: '平滑的色彩漸層',
      abstract: '由簡單形狀構成的抽象構圖',
      graphic: '線條簡潔、色塊平整的圖形插畫',
      texture: '細節豐富的紋理特寫',
      scene: '一幅攝影場景',
      outdoorScene: '上方有明亮天空的戶外場景',
      generic: '一張圖片',
    },
    style: {
      flat: '無紋理的扁平極簡風格',
      softGradient: '過渡平滑的柔和漸層風格',
      graphic: '邊緣清晰的簡潔圖形風格',
      highContrastGraphic: '邊緣醒目的高對比圖形風格',
      detailedTexture: '細節豐富、紋理細膩的風格',
      photographic: '自然的攝影風格',
    },
    aspect: {
      square: '方形構圖',
      landscape: '橫向構圖',
      portrait: '直向構圖',
      panoramic: '全景寬幅構圖',
      tallPanoramic: '超長直幅構圖',
    },
    placement: {
      even: '亮度分布均勻',
      center: '最亮區域位於中央',
      left: '最亮區域位於左側',
      right: '最亮區域位於右側',
      top: '最亮區域位於上方',
      bottom: '最亮區域位於下方',
      topLeft: '最亮區域位於左上方',
      topRight: '最亮區域位於右上方',
      bottomLeft: '最亮區域位於左下方',
      bottomRight: '最亮區域位於右下方',
    },
    light: {
      lowKey: '低調暗光',
      dim: '昏暗柔和的光線',
      balanced: '均衡自然的光線',
      bright: '明亮的光線',
      highKey: '高調明亮的光線',
    },
    contrast: { soft: '柔和均勻的光', moderate: '中等對比', hard: '對比強烈的硬光' },
    colour: {
      black: '黑色',
      gray: '灰色',
      lightGray: '淺灰色',
      white: '白色',
      red: '紅色',
      darkRed: '深紅色',
      orange: '橙色',
      yellow: '黃色',
      olive: '橄欖色',
      green: '綠色',
      darkGreen: '深綠色',
      darkGray: '深灰色',
      darkBlue: '深藍色',
      teal: '青綠色',
      cyan: '青色',
      blue: '藍色',
      navy: '海軍藍',
      purple: '紫色',
      magenta: '洋紅色',
      pink: '粉紅色',
      brown: '棕色',
      beige: '米色',
    },
    temperature: { warm: '暖色調', cool: '冷色調', neutral: '中性色調' },
    saturation: {
      monochrome: '單色低飽和',
      muted: '柔和低飽和的色彩',
      moderate: '中等飽和度',
      vivid: '鮮豔飽和的色彩',
    },
    mood: {
      dramatic: '戲劇性而強烈',
      somber: '神祕而深沉',
      energetic: '充滿活力',
      calm: '平靜內斂',
      joyful: '歡快明豔',
      airy: '輕盈寧靜',
    },
    angle: { eyeLevel: '平視角度', topDown: '俯拍視角' },
    focus: { shallow: '淺景深', deep: '大景深' },
    dominantLabel: '主色',
    accentLabel: '點綴色',
    moodLabel: '氛圍',
    cameraLabel: '鏡頭',
    mm: 'mm',
    listSep: '、',
    sep: '，',
    colon: '：',
    open: '（',
    close: '）',
    end: '。',
  },
  ja: {
    subject: {
      cutout: '透明な背景に切り抜かれた被写体',
      flatField: '均一な単色の面',
      gradient: 'なめらかなカラーグラデーション',
      abstract: 'シンプルな形で構成された抽象的なコンポジション',
      graphic: 'すっきりした形と平坦な色面のグラフィックイラスト',
      texture: '細部まで豊かな質感のクローズアップ',
      scene: '写真的なシーン',
      outdoorScene: '上部に明るい空が広がる屋外のシーン',
      generic: '一枚の画像',
    },
    style: {
      flat: '質感のないフラットでミニマルなスタイル',
      softGradient: 'なめらかな階調のソフトなグラデーションスタイル',
      graphic: '輪郭のくっきりしたクリーンなグラフィックスタイル',
      highContrastGraphic: '大胆な輪郭のハイコントラストなグラフィックスタイル',
      detailedTexture: '緻密で繊細な質感のスタイル',
      photographic: '自然な写真風のスタイル',
    },
    aspect: {
      square: '正方形の構図',
      landscape: '横長の構図',
      portrait: '縦長の構図',
      panoramic: 'パノラマ構図',
      tallPanoramic: '縦に細長い構図',
    },
    placement: {
      even: '明るさは全体に均一',
      center: '最も明るい部分は中央',
      left: '最も明るい部分は左側',
      right: '最も明るい部分は右側',
      top: '最も明るい部分は上部',
      bottom: '最も明るい部分は下部',
      topLeft: '最も明るい部分は左上',
      topRight: '最も明るい部分は右上',
      bottomLeft: '最も明るい部分は左下',
      bottomRight: '最も明るい部分は右下',
    },
    light: {
      lowKey: 'ローキーの暗い照明',
      dim: '薄暗く落ち着いた照明',
      balanced: 'バランスの取れた自然な照明',
      bright: '明るい照明',
      highKey: 'ハイキーの明るく輝く照明',
    },
    contrast: {
      soft: '柔らかく均一な光',
      moderate: '中程度のコントラスト',
      hard: '強いコントラストの硬い光',
    },
    colour: {
      black: '黒',
      gray: 'グレー',
      lightGray: 'ライトグレー',
      white: '白',
      red: '赤',
      darkRed: 'ダークレッド',
      orange: 'オレンジ',
      yellow: '黄色',
      olive: 'オリーブ',
      green: '緑',
      darkGreen: '深緑',
      darkGray: 'ダークグレー',
      darkBlue: '紺色',
      teal: 'ティール',
      cyan: 'シアン',
      blue: '青',
      navy: 'ネイビー',
      purple: '紫',
      magenta: 'マゼンタ',
      pink: 'ピンク',
      brown: '茶色',
      beige: 'ベージュ',
    },
    temperature: { warm: '暖色系', cool: '寒色系', neutral: 'ニュートラルな色調' },
    saturation: {
      monochrome: 'モノクロームで彩度の低い色',
      muted: 'くすんだ落ち着いた色',
      moderate: 'ほどよい彩度の色',
      vivid: '鮮やかで彩度の高い色',
    },
    mood: {
      dramatic: 'ドラマチックで力強い',
      somber: '神秘的で重厚',
      energetic: 'エネルギッシュで躍動的',
      calm: '穏やかで控えめ',
      joyful: '楽しく華やか',
      airy: '軽やかで静謐',
    },
    angle: { eyeLevel: 'アイレベル', topDown: '真上からの俯瞰' },
    focus: { shallow: '浅い被写界深度', deep: 'パンフォーカス' },
    dominantLabel: 'メインカラー',
    accentLabel: 'アクセントカラー',
    moodLabel: '雰囲気',
    cameraLabel: 'カメラ',
    mm: 'mm',
    listSep: '、',
    sep: '。',
    colon: '：',
    open: '（',
    close: '）',
    end: '。',
  },
  fr: {
    subject: {
      cutout: 'un sujet isolé, détouré sur fond transparent',
      flatField: 'un aplat de couleur uniforme',
      gradient: 'un dégradé de couleurs fluide',
      abstract: 'une composition abstraite de formes simples',
      graphic: 'une illustration graphique aux formes nettes et aux aplats de couleur',
      texture: 'un gros plan sur une texture riche en détails',
      scene: 'une scène photographique',
      outdoorScene: 'une scène en extérieur avec un ciel lumineux dans le haut',
      generic: 'une image',
    },
    style: {
      flat: 'style plat et minimaliste, sans texture',
      softGradient: 'style en dégradé doux aux transitions tonales fluides',
      graphic: 'style graphique épuré aux contours nets',
      highContrastGraphic: 'style graphique très contrasté aux contours affirmés',
      detailedTexture: 'style détaillé à la texture fine',
      photographic: 'style photographique naturel',
    },
    aspect: {
      square: 'format carré',
      landscape: 'format paysage',
      portrait: 'format portrait',
      panoramic: 'format panoramique',
      tallPanoramic: 'format vertical allongé',
    },
    placement: {
      even: 'luminosité répartie uniformément',
      center: 'zone la plus lumineuse au centre',
      left: 'zone la plus lumineuse à gauche',
      right: 'zone la plus lumineuse à droite',
      top: 'zone la plus lumineuse en haut',
      bottom: 'zone la plus lumineuse en bas',
      topLeft: 'zone la plus lumineuse en haut à gauche',
      topRight: 'zone la plus lumineuse en haut à droite',
      bottomLeft: 'zone la plus lumineuse en bas à gauche',
      bottomRight: 'zone la plus lumineuse en bas à droite',
    },
    light: {
      lowKey: 'éclairage sombre en clé basse',
      dim: 'éclairage tamisé',
      balanced: 'éclairage équilibré et naturel',
      bright: 'éclairage lumineux',
      highKey: 'éclairage très lumineux en clé haute',
    },
    contrast: {
      soft: 'lumière douce et homogène',
      moderate: 'contraste modéré',
      hard: 'lumière dure au contraste marqué',
    },
    colour: {
      black: 'noir',
      gray: 'gris',
      lightGray: 'gris clair',
      white: 'blanc',
      red: 'rouge',
      darkRed: 'rouge foncé',
      orange: 'orange',
      yellow: 'jaune',
      olive: 'vert olive',
      green: 'vert',
      darkGreen: 'vert foncé',
      darkGray: 'gris foncé',
      darkBlue: 'bleu foncé',
      teal: 'bleu canard',
      cyan: 'cyan',
      blue: 'bleu',
      navy: 'bleu marine',
      purple: 'violet',
      magenta: 'magenta',
      pink: 'rose',
      brown: 'marron',
      beige: 'beige',
    },
    temperature: { warm: 'tons chauds', cool: 'tons froids', neutral: 'tons neutres' },
    saturation: {
      monochrome: 'couleurs monochromes et désaturées',
      muted: 'couleurs sourdes',
      moderate: 'couleurs moyennement saturées',
      vivid: 'couleurs vives et saturées',
    },
    mood: {
      dramatic: 'dramatique et intense',
      somber: 'mystérieuse et sombre',
      energetic: 'énergique et vivante',
      calm: 'calme et sobre',
      joyful: 'joyeuse et éclatante',
      airy: 'aérienne et sereine',
    },
    angle: { eyeLevel: "à hauteur d'yeux", topDown: 'vue du dessus' },
    focus: { shallow: 'faible profondeur de champ', deep: 'grande profondeur de champ' },
    dominantLabel: 'couleur dominante',
    accentLabel: 'accent',
    moodLabel: 'ambiance',
    cameraLabel: 'prise de vue',
    mm: 'mm',
    listSep: ', ',
    sep: ', ',
    colon: ' : ',
    open: ' (',
    close: ')',
    end: '.',
  },
  es: {
    subject: {
      cutout: 'un sujeto aislado y recortado sobre fondo transparente',
      flatField: 'un campo uniforme de color sólido',
      gradient: 'un degradado de color suave',
      abstract: 'una composición abstracta de formas simples',
      graphic: 'una ilustración gráfica de formas limpias y zonas de color plano',
      texture: 'un primer plano de una textura rica en detalles',
      scene: 'una escena fotográfica',
      outdoorScene: 'una escena exterior con un cielo luminoso en la parte superior',
      generic: 'una imagen',
    },
    style: {
      flat: 'estilo plano y minimalista, sin textura',
      softGradient: 'estilo de degradado suave con transiciones tonales fluidas',
      graphic: 'estilo gráfico limpio con bordes nítidos',
      highContrastGraphic: 'estilo gráfico de alto contraste con bordes marcados',
      detailedTexture: 'estilo detallado de textura fina',
      photographic: 'estilo fotográfico natural',
    },
    aspect: {
      square: 'formato cuadrado',
      landscape: 'formato horizontal',
      portrait: 'formato vertical',
      panoramic: 'formato panorámico',
      tallPanoramic: 'formato vertical alargado',
    },
    placement: {
      even: 'brillo distribuido de forma uniforme',
      center: 'zona más luminosa en el centro',
      left: 'zona más luminosa a la izquierda',
      right: 'zona más luminosa a la derecha',
      top: 'zona más luminosa en la parte superior',
      bottom: 'zona más luminosa en la parte inferior',
      topLeft: 'zona más luminosa arriba a la izquierda',
      topRight: 'zona más luminosa arriba a la derecha',
      bottomLeft: 'zona más luminosa abajo a la izquierda',
      bottomRight: 'zona más luminosa abajo a la derecha',
    },
    light: {
      lowKey: 'iluminación oscura en clave baja',
      dim: 'iluminación tenue',
      balanced: 'iluminación equilibrada y natural',
      bright: 'iluminación brillante',
      highKey: 'iluminación muy luminosa en clave alta',
    },
    contrast: {
      soft: 'luz suave y uniforme',
      moderate: 'contraste moderado',
      hard: 'luz dura con fuerte contraste',
    },
    colour: {
      black: 'negro',
      gray: 'gris',
      lightGray: 'gris claro',
      white: 'blanco',
      red: 'rojo',
      darkRed: 'rojo oscuro',
      orange: 'naranja',
      yellow: 'amarillo',
      olive: 'verde oliva',
      green: 'verde',
      darkGreen: 'verde oscuro',
      darkGray: 'gris oscuro',
      darkBlue: 'azul oscuro',
      teal: 'verde azulado',
      cyan: 'cian',
      blue: 'azul',
      navy: 'azul marino',
      purple: 'morado',
      magenta: 'magenta',
      pink: 'rosa',
      brown: 'marrón',
      beige: 'beige',
    },
    temperature: { warm: 'tonos cálidos', cool: 'tonos fríos', neutral: 'tonos neutros' },
    saturation: {
      monochrome: 'colores monocromos y desaturados',
      muted: 'colores apagados',
      moderate: 'colores moderadamente saturados',
      vivid: 'colores vivos y saturados',
    },
    mood: {
      dramatic: 'dramático e intenso',
      somber: 'misterioso y sombrío',
      energetic: 'enérgico y vivo',
      calm: 'tranquilo y sobrio',
      joyful: 'alegre y vibrante',
      airy: 'etéreo y sereno',
    },
    angle: { eyeLevel: 'a la altura de los ojos', topDown: 'vista cenital' },
    focus: { shallow: 'poca profundidad de campo', deep: 'gran profundidad de campo' },
    dominantLabel: 'color dominante',
    accentLabel: 'acento',
    moodLabel: 'ambiente',
    cameraLabel: 'cámara',
    mm: 'mm',
    listSep: ', ',
    sep: ', ',
    colon: ': ',
    open: ' (',
    close: ')',
    end: '.',
  },
  de: {
    subject: {
      cutout: 'ein freigestelltes Motiv auf transparentem Hintergrund',
      flatField: 'eine gleichmäßige, einfarbige Fläche',
      gradient: 'ein sanfter Farbverlauf',
      abstract: 'eine abstrakte Komposition aus einfachen Formen',
      graphic: 'eine grafische Illustration mit klaren Formen und flächigen Bereichen',
      texture: 'eine Nahaufnahme einer detailreichen Textur',
      scene: 'eine fotografische Szene',
      outdoorScene: 'eine Außenszene mit hellem Himmel im oberen Bereich',
      generic: 'ein Bild',
    },
    style: {
      flat: 'flacher, minimalistischer Stil ohne Textur',
      softGradient: 'weicher Verlaufsstil mit fließenden Tonübergängen',
      graphic: 'klarer grafischer Stil mit scharfen Kanten',
      highContrastGraphic: 'kontrastreicher grafischer Stil mit kräftigen Kanten',
      detailedTexture: 'detailreicher Stil mit feiner Textur',
      photographic: 'natürlicher fotografischer Stil',
    },
    aspect: {
      square: 'quadratisches Format',
      landscape: 'Querformat',
      portrait: 'Hochformat',
      panoramic: 'Panoramaformat',
      tallPanoramic: 'schmales Hochformat',
    },
    placement: {
      even: 'Helligkeit gleichmäßig verteilt',
      center: 'hellster Bereich in der Mitte',
      left: 'hellster Bereich links',
      right: 'hellster Bereich rechts',
      top: 'hellster Bereich oben',
      bottom: 'hellster Bereich unten',
      topLeft: 'hellster Bereich oben links',
      topRight: 'hellster Bereich oben rechts',
      bottomLeft: 'hellster Bereich unten links',
      bottomRight: 'hellster Bereich unten rechts',
    },
    light: {
      lowKey: 'dunkle Low-Key-Beleuchtung',
      dim: 'gedämpfte Beleuchtung',
      balanced: 'ausgewogene, natürliche Beleuchtung',
      bright: 'helle Beleuchtung',
      highKey: 'strahlende High-Key-Beleuchtung',
    },
    contrast: {
      soft: 'weiches, gleichmäßiges Licht',
      moderate: 'mittlerer Kontrast',
      hard: 'hartes Licht mit starkem Kontrast',
    },
    colour: {
      black: 'Schwarz',
      gray: 'Grau',
      lightGray: 'Hellgrau',
      white: 'Weiß',
      red: 'Rot',
      darkRed: 'Dunkelrot',
      orange: 'Orange',
      yellow: 'Gelb',
      olive: 'Olivgrün',
      green: 'Grün',
      darkGreen: 'Dunkelgrün',
      darkGray: 'Dunkelgrau',
      darkBlue: 'Dunkelblau',
      teal: 'Petrol',
      cyan: 'Cyan',
      blue: 'Blau',
      navy: 'Marineblau',
      purple: 'Lila',
      magenta: 'Magenta',
      pink: 'Rosa',
      brown: 'Braun',
      beige: 'Beige',
    },
    temperature: { warm: 'warme Töne', cool: 'kühle Töne', neutral: 'neutrale Töne' },
    saturation: {
      monochrome: 'monochrom, entsättigte Farben',
      muted: 'gedeckte Farben',
      moderate: 'mäßig gesättigte Farben',
      vivid: 'kräftige, gesättigte Farben',
    },
    mood: {
      dramatic: 'dramatisch und intensiv',
      somber: 'geheimnisvoll und düster',
      energetic: 'energiegeladen und lebendig',
      calm: 'ruhig und zurückhaltend',
      joyful: 'fröhlich und lebhaft',
      airy: 'luftig und heiter',
    },
    angle: { eyeLevel: 'auf Augenhöhe', topDown: 'Draufsicht von oben' },
    focus: { shallow: 'geringe Schärfentiefe', deep: 'durchgehende Schärfe' },
    dominantLabel: 'Hauptfarbe',
    accentLabel: 'Akzent',
    moodLabel: 'Stimmung',
    cameraLabel: 'Kamera',
    mm: 'mm',
    listSep: ', ',
    sep: ', ',
    colon: ': ',
    open: ' (',
    close: ')',
    end: '.',
  },
  pt: {
    subject: {
      cutout: 'um elemento isolado, recortado sobre fundo transparente',
      flatField: 'um campo uniforme de cor sólida',
      gradient: 'um gradiente de cor suave',
      abstract: 'uma composição abstrata de formas simples',
      graphic: 'uma ilustração gráfica de formas limpas e áreas de cor chapada',
      texture: 'um plano aproximado de uma textura rica em detalhes',
      scene: 'uma cena fotográfica',
      outdoorScene: 'uma cena ao ar livre com um céu claro na parte superior',
      generic: 'uma imagem',
    },
    style: {
      flat: 'estilo plano e minimalista, sem textura',
      softGradient: 'estilo de gradiente suave com transições tonais fluidas',
      graphic: 'estilo gráfico limpo com contornos nítidos',
      highContrastGraphic: 'estilo gráfico de alto contraste com contornos marcantes',
      detailedTexture: 'estilo detalhado de textura fina',
      photographic: 'estilo fotográfico natural',
    },
    aspect: {
      square: 'formato quadrado',
      landscape: 'formato paisagem',
      portrait: 'formato retrato',
      panoramic: 'formato panorâmico',
      tallPanoramic: 'formato vertical alongado',
    },
    placement: {
      even: 'brilho distribuído de maneira uniforme',
      center: 'área mais clara no centro',
      left: 'área mais clara à esquerda',
      right: 'área mais clara à direita',
      top: 'área mais clara na parte superior',
      bottom: 'área mais clara na parte inferior',
      topLeft: 'área mais clara no canto superior esquerdo',
      topRight: 'área mais clara no canto superior direito',
      bottomLeft: 'área mais clara no canto inferior esquerdo',
      bottomRight: 'área mais clara no canto inferior direito',
    },
    light: {
      lowKey: 'iluminação escura em chave baixa',
      dim: 'iluminação fraca e suave',
      balanced: 'iluminação equilibrada e natural',
      bright: 'iluminação intensa e clara',
      highKey: 'iluminação muito clara em chave alta',
    },
    contrast: {
      soft: 'luz suave e uniforme',
      moderate: 'contraste moderado',
      hard: 'luz dura com forte contraste',
    },
    colour: {
      black: 'preto',
      gray: 'cinza',
      lightGray: 'cinza-claro',
      white: 'branco',
      red: 'vermelho',
      darkRed: 'vermelho-escuro',
      orange: 'laranja',
      yellow: 'amarelo',
      olive: 'verde-oliva',
      green: 'verde',
      darkGreen: 'verde-escuro',
      darkGray: 'cinza-escuro',
      darkBlue: 'azul-escuro',
      teal: 'verde-azulado',
      cyan: 'ciano',
      blue: 'azul',
      navy: 'azul-marinho',
      purple: 'roxo',
      magenta: 'magenta',
      pink: 'rosa',
      brown: 'marrom',
      beige: 'bege',
    },
    temperature: { warm: 'tons quentes', cool: 'tons frios', neutral: 'tons neutros' },
    saturation: {
      monochrome: 'cores monocromáticas e dessaturadas',
      muted: 'cores suaves e apagadas',
      moderate: 'cores moderadamente saturadas',
      vivid: 'cores vivas e saturadas',
    },
    mood: {
      dramatic: 'dramática e intensa',
      somber: 'misteriosa e sombria',
      energetic: 'enérgica e cheia de vida',
      calm: 'calma e discreta',
      joyful: 'alegre e radiante',
      airy: 'leve e serena',
    },
    angle: { eyeLevel: 'na altura dos olhos', topDown: 'vista de cima' },
    focus: { shallow: 'pouca profundidade de campo', deep: 'grande profundidade de campo' },
    dominantLabel: 'cor dominante',
    accentLabel: 'destaque',
    moodLabel: 'atmosfera',
    cameraLabel: 'câmera',
    mm: 'mm',
    listSep: ', ',
    sep: ', ',
    colon: ': ',
    open: ' (',
    close: ')',
    end: '.',
  },
  ru: {
    subject: {
      cutout: 'отдельный объект, вырезанный на прозрачном фоне',
      flatField: 'однородное поле сплошного цвета',
      gradient: 'плавный цветовой градиент',
      abstract: 'абстрактная композиция из простых форм',
      graphic: 'графическая иллюстрация с чёткими формами и плоскими заливками',
      texture: 'крупный план детализированной текстуры',
      scene: 'фотографическая сцена',
      outdoorScene: 'сцена на открытом воздухе с ярким небом в верхней части',
      generic: 'изображение',
    },
    style: {
      flat: 'плоский минималистичный стиль без текстуры',
      softGradient: 'мягкий градиентный стиль с плавными тональными переходами',
      graphic: 'чистый графический стиль с чёткими краями',
      highContrastGraphic: 'высококонтрастный графический стиль с резкими краями',
      detailedTexture: 'детализированный стиль с тонкой текстурой',
      photographic: 'естественный фотографический стиль',
    },
    aspect: {
      square: 'квадратный формат',
      landscape: 'горизонтальный формат',
      portrait: 'вертикальный формат',
      panoramic: 'панорамный формат',
      tallPanoramic: 'вытянутый вертикальный формат',
    },
    placement: {
      even: 'яркость распределена равномерно',
      center: 'самая яркая область в центре',
      left: 'самая яркая область слева',
      right: 'самая яркая область справа',
      top: 'самая яркая область вверху',
      bottom: 'самая яркая область внизу',
      topLeft: 'самая яркая область вверху слева',
      topRight: 'самая яркая область вверху справа',
      bottomLeft: 'самая яркая область внизу слева',
      bottomRight: 'самая яркая область внизу справа',
    },
    light: {
      lowKey: 'тёмное низкоключевое освещение',
      dim: 'приглушённое освещение',
      balanced: 'сбалансированное естественное освещение',
      bright: 'яркое освещение',
      highKey: 'светлое высокоключевое освещение',
    },
    contrast: {
      soft: 'мягкий равномерный свет',
      moderate: 'умеренный контраст',
      hard: 'жёсткий свет с сильным контрастом',
    },
    colour: {
      black: 'чёрный',
      gray: 'серый',
      lightGray: 'светло-серый',
      white: 'белый',
      red: 'красный',
      darkRed: 'тёмно-красный',
      orange: 'оранжевый',
      yellow: 'жёлтый',
      olive: 'оливковый',
      green: 'зелёный',
      darkGreen: 'тёмно-зелёный',
      darkGray: 'тёмно-серый',
      darkBlue: 'тёмно-синий',
      teal: 'сине-зелёный',
      cyan: 'голубой',
      blue: 'синий',
      navy: 'тёмно-синий',
      purple: 'фиолетовый',
      magenta: 'пурпурный',
      pink: 'розовый',
      brown: 'коричневый',
      beige: 'бежевый',
    },
    temperature: { warm: 'тёплые тона', cool: 'холодные тона', neutral: 'нейтральные тона' },
    saturation: {
      monochrome: 'монохромная, обесцвеченная гамма',
      muted: 'приглушённые цвета',
      moderate: 'умеренно насыщенные цвета',
      vivid: 'яркие насыщенные цвета',
    },
    mood: {
      dramatic: 'драматичное и напряжённое',
      somber: 'таинственное и мрачное',
      energetic: 'энергичное и живое',
      calm: 'спокойное и сдержанное',
      joyful: 'радостное и яркое',
      airy: 'лёгкое и безмятежное',
    },
    angle: { eyeLevel: 'на уровне глаз', topDown: 'вид сверху' },
    focus: { shallow: 'малая глубина резкости', deep: 'большая глубина резкости' },
    dominantLabel: 'основной цвет',
    accentLabel: 'акцент',
    moodLabel: 'настроение',
    cameraLabel: 'камера',
    mm: 'мм',
    listSep: ', ',
    sep: ', ',
    colon: ': ',
    open: ' (',
    close: ')',
    end: '.',
  },
};

/** What the pixels say, independent of language. */
interface Analysis {
  width: number;
  height: number;
  cutout: boolean;
  style: StyleKey;
  subject: SubjectKey;
  placement: PlacementKey;
  light: LightKey;
  contrast: ContrastKey;
  dominant: ColourKey;
  accent: ColourKey | null;
  temperature: TemperatureKey;
  saturation: SaturationKey;
  mood: MoodKey;
  camera: { angle: AngleKey; lens: number; focus: FocusKey } | null;
}

/** Longest side the pixel analysis works at: enough for tones and texture, cheap for huge uploads. */
const ANALYSIS_SIZE = 512;

export async function describeImage(bytes: Buffer, language: DescribeLanguage): Promise<DescribeResult> {
  const phrases = PHRASES[language] ?? PHRASES.en;
  const input = { failOn: 'none', limitInputPixels: false } as const;
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, input).metadata();
    width = meta.autoOrient?.width ?? meta.width ?? 1;
    height = meta.autoOrient?.height ?? meta.height ?? 1;
    // Multi-page (animated) images report the whole strip; describe one frame.
    const pages = meta.pages ?? 1;
    if (pages > 1 && meta.pageHeight && height === meta.pageHeight * pages) height = meta.pageHeight;
  } catch (err) {
    throw new Error(
      `describeImage: not a decodable image (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  width = Math.max(1, width);
  height = Math.max(1, height);

  let analysis: Analysis | null = null;
  try {
    analysis = await analyse(bytes, input, width, height);
  } catch {
    analysis = null; // header readable but pixels not: describe from the metadata alone
  }
  return render(phrases, width, height, analysis);
}

async function analyse(
  bytes: Buffer,
  input: { failOn: 'none'; limitInputPixels: false },
  width: number,
  height: number,
): Promise<Analysis> {
  const { data, info } = await sharp(bytes, { ...input, autoOrient: true })
    .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const ch = info.channels;
  const stats = await sharp(data, { raw: { width: w, height: h, channels: ch } }).stats();

  const n = w * h;
  let transparent = 0;
  for (let i = 0; i < n; i++) if ((data[i * ch + 3] ?? 255) < 128) transparent++;
  const cutout = transparent / n >= 0.01;
  // Weight pixels by opacity so a cut-out is judged by its subject, not its empty background;
  // a fully transparent image falls back to plain weights.
  const useAlpha = cutout && transparent < n;

  const luma = new Float32Array(n);
  const weight = new Float32Array(n);
  const hist = new Float64Array(4096);
  const cellW = new Float64Array(9);
  const cellL = new Float64Array(9);
  let sw = 0;
  let sLuma = 0;
  let sLuma2 = 0;
  let sMax = 0;
  let sChroma = 0;
  let sHx = 0;
  let sHy = 0;
  for (let y = 0; y < h; y++) {
    const cy = Math.min(2, Math.floor((y * 3) / h));
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const o = p * ch;
      const r = data[o] ?? 0;
      const g = data[o + 1] ?? r;
      const b = data[o + 2] ?? r;
      const a = useAlpha ? (data[o + 3] ?? 255) / 255 : 1;
      const Y = 0.299 * r + 0.587 * g + 0.114 * b;
      luma[p] = Y;
      weight[p] = a;
      if (a <= 0) continue;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const c = max - min;
      sw += a;
      sLuma += a * Y;
      sLuma2 += a * Y * Y;
      sMax += a * max;
      sChroma += a * c;
      if (c > 0) {
        let hue: number;
        if (max === r) hue = ((g - b) / c + 6) % 6;
        else if (max === g) hue = (b - r) / c + 2;
        else hue = (r - g) / c + 4;
        const rad = (hue * Math.PI) / 3;
        sHx += a * c * Math.cos(rad);
        sHy += a * c * Math.sin(rad);
      }
      hist[((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4)]! += a;
      const cell = cy * 3 + Math.min(2, Math.floor((x * 3) / w));
      cellW[cell]! += a;
      cellL[cell]! += a * Y;
    }
  }
  if (sw <= 0) sw = 1;

  const meanLuma = sLuma / sw;
  const lumaStdev = Math.sqrt(Math.max(0, sLuma2 / sw - meanLuma * meanLuma));
  const brightness = 0.5 * meanLuma + 0.5 * (sMax / sw);
  const saturation = sMax > 0 ? sChroma / sMax : 0;
  const hueStrength = sChroma > 0 ? Math.hypot(sHx, sHy) / sChroma : 0;
  const hueDeg = ((Math.atan2(sHy, sHx) * 180) / Math.PI + 360) % 360;

  // Colours: how many 4-bit bins matter, and the share of each named colour.
  let significant = 0;
  const named = new Map<ColourKey, number>();
  let topBin = 0;
  for (let bin = 0; bin < 4096; bin++) {
    const v = hist[bin] ?? 0;
    if (v <= 0) continue;
    if (v >= 0.002 * sw) significant++;
    if (v > (hist[topBin] ?? 0)) topBin = bin;
    const name = nearestColour(binCentre(bin));
    named.set(name, (named.get(name) ?? 0) + v);
  }
  const dominant = nearestColour(useAlpha ? binCentre(topBin) : stats.dominant);
  let accent: ColourKey | null = null;
  let accentShare = 0;
  for (const key of COLOUR_KEYS) {
    const share = (named.get(key) ?? 0) / sw;
    if (key !== dominant && share >= 0.12 && share > accentShare) {
      accent = key;
      accentShare = share;
    }
  }

  // Where the brightness sits: a 3x3 grid decides whether it is even, the centroid of the
  // above-average pixels decides where.
  let cellMin = Infinity;
  let cellMax = -Infinity;
  let cells = 0;
  for (let i = 0; i < 9; i++) {
    const cw = cellW[i] ?? 0;
    if (cw <= 0) continue;
    const m = (cellL[i] ?? 0) / cw;
    cellMin = Math.min(cellMin, m);
    cellMax = Math.max(cellMax, m);
    cells++;
  }
  let placement: PlacementKey = 'even';
  if (cells >= 2 && lumaStdev >= 6 && cellMax - cellMin >= 10) {
    let cw = 0;
    let cx = 0;
    let cyy = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        const d = ((luma[p] ?? 0) - meanLuma) * (weight[p] ?? 0);
        if (d <= 0) continue;
        cw += d;
        cx += d * ((x + 0.5) / w);
        cyy += d * ((y + 0.5) / h);
      }
    }
    if (cw > 0) placement = placementOf(cx / cw, cyy / cw);
  }

  const entropy = stats.entropy;
  const sharpness = stats.sharpness;
  let style: StyleKey;
  // Near-uniform (one or two colours, or a few with hardly any tonal spread) reads as flat.
  if (
    (significant <= 2 && lumaStdev < 4) ||
    (significant <= 4 && lumaStdev < 6) ||
    (lumaStdev < 1.5 && entropy < 0.5)
  )
    style = 'flat';
  else if (sharpness < 1 && significant >= 8) style = 'softGradient';
  else if (entropy < 4.5 || significant <= 12) style = lumaStdev >= 60 ? 'highContrastGraphic' : 'graphic';
  else if (sharpness >= 8) style = 'detailedTexture';
  else style = 'photographic';

  const aspect = aspectOf(width, height);
  let subject: SubjectKey;
  if (cutout) subject = 'cutout';
  else if (style === 'flat') subject = 'flatField';
  else if (style === 'softGradient') subject = 'gradient';
  else if (style === 'graphic' || style === 'highContrastGraphic')
    subject = significant <= 6 ? 'abstract' : 'graphic';
  else if (style === 'detailedTexture') subject = 'texture';
  else if (
    (aspect === 'landscape' || aspect === 'panoramic') &&
    (placement === 'top' || placement === 'topLeft' || placement === 'topRight')
  )
    subject = 'outdoorScene';
  else subject = 'scene';

  const light: LightKey =
    brightness < 50
      ? 'lowKey'
      : brightness < 100
        ? 'dim'
        : brightness < 160
          ? 'balanced'
          : brightness < 205
            ? 'bright'
            : 'highKey';
  const contrast: ContrastKey = lumaStdev < 25 ? 'soft' : lumaStdev < 60 ? 'moderate' : 'hard';

  let temperature: TemperatureKey = 'neutral';
  if (saturation >= 0.08 && hueStrength >= 0.25) {
    if (hueDeg < 70 || hueDeg >= 330) temperature = 'warm';
    else if (hueDeg >= 90 && hueDeg < 300) temperature = 'cool';
  }
  const satKey: SaturationKey =
    saturation < 0.08 ? 'monochrome' : saturation < 0.3 ? 'muted' : saturation < 0.55 ? 'moderate' : 'vivid';

  const vivid = saturation >= 0.4;
  const mood: MoodKey =
    brightness < 90
      ? vivid
        ? 'dramatic'
        : 'somber'
      : brightness < 165
        ? vivid
          ? 'energetic'
          : 'calm'
        : vivid
          ? 'joyful'
          : 'airy';

  const camera =
    style === 'photographic' || style === 'detailedTexture'
      ? {
          angle: (style === 'detailedTexture' ? 'topDown' : 'eyeLevel') as AngleKey,
          lens: LENS[aspect],
          focus: (sharpness < 3 ? 'shallow' : 'deep') as FocusKey,
        }
      : null;

  return {
    width,
    height,
    cutout,
    style,
    subject,
    placement,
    light,
    contrast,
    dominant,
    accent,
    temperature,
    saturation: satKey,
    mood,
    camera,
  };
}

const LENS: Record<AspectKey, number> = {
  square: 50,
  landscape: 35,
  portrait: 85,
  panoramic: 24,
  tallPanoramic: 35,
};

function render(p: Phrases, width: number, height: number, a: Analysis | null): DescribeResult {
  const composition = [
    `${p.aspect[aspectOf(width, height)]}${p.open}${ratioLabel(width, height)}${p.close}`,
    ...(a ? [p.placement[a.placement]] : []),
  ].join(p.listSep);
  if (!a) {
    const subject = p.subject.generic;
    return {
      overallDescription: capitalise([subject, composition].join(p.sep)) + p.end,
      subject,
      composition,
      style: '',
      lighting: '',
      palette: '',
      mood: '',
      camera: null,
    };
  }
  const subject = p.subject[a.subject];
  const style = p.style[a.style];
  const lighting = [p.light[a.light], p.contrast[a.contrast]].join(p.listSep);
  const palette = [
    `${p.dominantLabel}${p.colon}${p.colour[a.dominant]}`,
    ...(a.accent ? [`${p.accentLabel}${p.colon}${p.colour[a.accent]}`] : []),
    p.temperature[a.temperature],
    p.saturation[a.saturation],
  ].join(p.listSep);
  const mood = p.mood[a.mood];
  const camera = a.camera
    ? [p.angle[a.camera.angle], `${a.camera.lens} ${p.mm}`, p.focus[a.camera.focus]].join(p.listSep)
    : null;
  const overall = [
    subject,
    style,
    composition,
    lighting,
    palette,
    `${p.moodLabel}${p.colon}${mood}`,
    ...(camera ? [`${p.cameraLabel}${p.colon}${camera}`] : []),
  ].join(p.sep);
  return {
    overallDescription: capitalise(overall) + p.end,
    subject,
    composition,
    style,
    lighting,
    palette,
    mood,
    camera,
  };
}

function aspectOf(width: number, height: number): AspectKey {
  const r = width / height;
  if (r >= 2) return 'panoramic';
  if (r <= 0.5) return 'tallPanoramic';
  if (r > 1.07) return 'landscape';
  if (r < 1 / 1.07) return 'portrait';
  return 'square';
}

const COMMON_RATIOS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [5, 4],
  [4, 3],
  [3, 2],
  [16, 10],
  [16, 9],
  [2, 1],
  [21, 9],
  [3, 1],
];

function ratioLabel(width: number, height: number): string {
  const r = width / height;
  for (const [a, b] of COMMON_RATIOS) {
    if (Math.abs(r / (a / b) - 1) <= 0.015) return `${a}:${b}`;
    if (Math.abs(r / (b / a) - 1) <= 0.015) return `${b}:${a}`;
  }
  const g = gcd(width, height);
  if (width / g <= 32 && height / g <= 32) return `${width / g}:${height / g}`;
  return r >= 1 ? `${r.toFixed(2)}:1` : `1:${(1 / r).toFixed(2)}`;
}

function gcd(a: number, b: number): number {
  let x = Math.round(a);
  let y = Math.round(b);
  while (y) [x, y] = [y, x % y];
  return x || 1;
}

function placementOf(x: number, y: number): PlacementKey {
  const hz = x < 0.4 ? 'left' : x > 0.6 ? 'right' : 'mid';
  const vt = y < 0.4 ? 'top' : y > 0.6 ? 'bottom' : 'mid';
  if (vt === 'mid') return hz === 'mid' ? 'center' : hz;
  if (hz === 'mid') return vt;
  if (vt === 'top') return hz === 'left' ? 'topLeft' : 'topRight';
  return hz === 'left' ? 'bottomLeft' : 'bottomRight';
}

function binCentre(bin: number): Rgb {
  return { r: ((bin >> 8) << 4) + 8, g: (((bin >> 4) & 15) << 4) + 8, b: ((bin & 15) << 4) + 8 };
}

/** Nearest named colour by the "redmean" weighted RGB distance; ties go to the earlier entry. */
function nearestColour(c: Rgb): ColourKey {
  let best: ColourKey = 'black';
  let bestD = Infinity;
  for (const key of COLOUR_KEYS) {
    const t = COLOURS[key];
    const rm = (c.r + t.r) / 2;
    const dr = c.r - t.r;
    const dg = c.g - t.g;
    const db = c.b - t.b;
    const d = (2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db;
    if (d < bestD) {
      bestD = d;
      best = key;
    }
  }
  return best;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
