// Lint: typescript-eslint's type-aware recommended rules over the sources, tests, benchmarks
// and scripts; formatting is Prettier's (.prettierrc.json), so style rules are off here.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'test/fixtures/**', 'clients/typescript/dist/**', 'clients/typescript/src/generated/**', 'web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The files outside every tsconfig (entry points, worker bootstraps, configs), linted in the default project:
      // twelve of them, above typescript-eslint's default limit of 8 (which guards against globs matching hundreds).
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js', '.dependency-cruiser.cjs', 'bin/*.js', 'scripts/*.mjs', 'src/*/*.mjs', 'web/vite.config.ts'],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Fastify handlers and test callbacks are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // Its view of narrowing differs from tsc's here (it calls `last!` after a loop unnecessary,
      // tsc then refuses the code): tsc is the authority on types.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it/test return promises that the runner itself awaits.
        { ignoreVoid: true, allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, properties: false } }],
    },
  },
  {
    // Tests and benchmarks read JSON answers of the API under test: `any` is their vocabulary.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // dependency-cruiser reads its configuration as CommonJS.
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  prettier,
);
