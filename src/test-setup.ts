import { configure } from '@testing-library/react';

// Unit tests measure no speed (the bench does): findBy* and waitFor wait up to 5 s instead of 1 s, so a
// loaded machine (CI, eight developers on two cores) does not fail a test for time alone.
configure({ asyncUtilTimeout: 5_000 });
