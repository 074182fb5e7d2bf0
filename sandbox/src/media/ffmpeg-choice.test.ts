import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { describe, expect, it } from 'vitest';
import { chooseFfmpeg } from './ffmpeg';

describe('which ffmpeg the sandbox runs', () => {
  const systemThere = () => true;
  const noSystem = () => false;

  it('FFMPEG_PATH first, whatever else is there', () => {
    expect(chooseFfmpeg({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' }, systemThere)).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'FFMPEG_PATH',
    });
  });

  it('then the system’s ffmpeg when it runs', () => {
    expect(chooseFfmpeg({}, systemThere)).toEqual({ path: 'ffmpeg', source: 'system' });
  });

  it('then the bundled build', () => {
    expect(chooseFfmpeg({}, noSystem)).toEqual({ path: ffmpegInstaller.path, source: 'bundled' });
  });

  it('FFMPEG_PATH=bundled forces the bundled build even with a system ffmpeg', () => {
    expect(chooseFfmpeg({ FFMPEG_PATH: 'bundled' }, systemThere).source).toBe('bundled');
  });

  it('an empty FFMPEG_PATH is as if unset', () => {
    expect(chooseFfmpeg({ FFMPEG_PATH: '  ' }, systemThere).source).toBe('system');
  });
});
