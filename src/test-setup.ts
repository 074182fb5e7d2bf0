import { afterAll } from 'vitest';
import { configure } from '@testing-library/react';

// Unit tests measure no speed (the bench does): findBy* and waitFor wait up to 5 s instead of 1 s, so a
// loaded machine (CI, eight developers on two cores) does not fail a test for time alone.
configure({ asyncUtilTimeout: 5_000 });

// The notice library (sonner) removes a dismissed notice after a 200 ms exit timer that it does not clear
// when its area unmounts. A page (jsdom) torn down inside that window makes the timer throw "window is not
// defined" into the run, so each file's page outlives its last test by a little more than that.
afterAll(async () => {
  if (typeof window !== 'undefined') await new Promise((resolve) => setTimeout(resolve, 250));
});
