// The partner-facing vitest example lives in examples/ (outside this suite's include); importing it here
// registers its tests in this file, so they run, type-check and stay true with the rest.
import '../../examples/testing-with-the-mock.test.js';
