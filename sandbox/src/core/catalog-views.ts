import { CATEGORIES, isCategory } from '../../../contract/category';
import type { ParamDef } from '../../../contract/param';
import { catalogAssets } from './catalog/assets';
import {
  isModelListed,
  isTemplateListed,
  isToolListed,
  toPublicAiTool,
  toPublicModel,
  toPublicTemplate,
} from './catalog/fixture';
import type { CatalogFixture, FixtureAiTool, FixtureModel, FixtureTemplate } from './catalog/types';
import { absoluteUrl, type SandboxConfig } from './config';
import { SandboxError } from './errors';
import type { MediaStore } from './media-store';

// The catalog as the API shows it (GET /models, /ai-tools, /templates): the fixture's public view, an
// allowlist of spec fields, with asset paths made absolute, and the look-ups of a listed tool or template.

export class CatalogViews {
  constructor(
    readonly catalog: CatalogFixture,
    private readonly config: SandboxConfig,
  ) {}

  /** Makes every catalog asset (logos, covers, voice previews) servable, rendered on first use. */
  registerAssets(media: MediaStore): void {
    const { works } = this.config;
    for (const [path, asset] of Object.entries(catalogAssets)) {
      media.putLazy(path, () =>
        asset.kind === 'logo' ? works.renderLogo(asset.seed, asset.text) : works.render(asset.spec),
      );
    }
  }

  modelById = (id: string) => this.catalog.models.find((m) => m.id === id);

  private url(path: string): string {
    return absoluteUrl(this.config, path);
  }

  private publicParams(defs: ParamDef[]): ParamDef[] {
    return defs.map((d) => ({
      ...d,
      ...(d.options
        ? {
            options: d.options.map((o) =>
              typeof o === 'object' && o.previewUrl ? { ...o, previewUrl: this.url(o.previewUrl) } : o,
            ),
          }
        : {}),
    }));
  }

  private publicModel(m: FixtureModel) {
    const model = toPublicModel(m);
    return {
      ...model,
      brand: { ...model.brand, ...(model.brand.logo ? { logo: this.url(model.brand.logo) } : {}) },
      params: this.publicParams(model.params),
    };
  }

  listModels(type: string | undefined, subType: string | undefined) {
    if (!type || !subType || !isCategory(type, subType)) {
      throw new SandboxError(
        400,
        'invalid_payload',
        'Query parameters type and subtype must name one of the public categories.',
        { param: !type ? 'type' : 'subtype', extra: { validCategories: CATEGORIES } },
      );
    }
    return {
      models: this.catalog.models
        .filter((m) => m.type === type && m.subType === subType && isModelListed(m))
        .map((m) => this.publicModel(m)),
    };
  }

  private checkMediaTypeFilter(type: string | undefined): void {
    if (type !== undefined && type !== 'image' && type !== 'video') {
      throw new SandboxError(400, 'invalid_type', 'type must be image or video.', { param: 'type' });
    }
  }

  private toolListed = (t: FixtureAiTool) => isToolListed(t, this.modelById(t.modelId));
  private templateListed = (t: FixtureTemplate) => isTemplateListed(t, this.modelById(t.modelId));

  private publicPreset<T extends { coverUrl?: string; params: ParamDef[] }>(p: T): T {
    return {
      ...p,
      params: this.publicParams(p.params),
      ...(p.coverUrl ? { coverUrl: this.url(p.coverUrl) } : {}),
    };
  }

  private publicTool = (t: FixtureAiTool) => this.publicPreset(toPublicAiTool(t));
  private publicTemplate = (t: FixtureTemplate) => this.publicPreset(toPublicTemplate(t));

  listAiTools(type: string | undefined) {
    this.checkMediaTypeFilter(type);
    return {
      aiTools: this.catalog.aiTools
        .filter((t) => this.toolListed(t) && (!type || t.mediaType === type))
        .map((t) => this.publicTool(t)),
    };
  }

  findTool(slug: string) {
    const tool = this.catalog.aiTools.find((t) => t.slug === slug);
    if (!tool || !this.toolListed(tool)) {
      throw new SandboxError(404, 'unknown_ai_tool', `No AI tool "${slug}".`, { param: 'aiTool' });
    }
    return tool;
  }

  getAiTool(slug: string) {
    return this.publicTool(this.findTool(slug));
  }

  listTemplates(type: string | undefined) {
    this.checkMediaTypeFilter(type);
    return {
      templates: this.catalog.templates
        .filter((t) => this.templateListed(t) && (!type || t.mediaType === type))
        .map((t) => this.publicTemplate(t)),
    };
  }

  findTemplate(slug: string) {
    const template = this.catalog.templates.find((t) => t.slug === slug);
    if (!template || !this.templateListed(template)) {
      throw new SandboxError(404, 'unknown_template', `No template "${slug}".`, { param: 'template' });
    }
    return template;
  }

  getTemplate(slug: string) {
    return this.publicTemplate(this.findTemplate(slug));
  }
}
