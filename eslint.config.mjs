import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/.next/**',
      '**/generated/**',
      'apps/cli/dist*/**',
      '**/next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // A committed .only (it.only, describe.only, test.describe.only) runs that test alone and drops the others
      // silently; vitest's allowOnly and Playwright's forbidOnly refuse it at run time, this before a commit.
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='only']", message: 'a committed .only drops every other test' },
      ],
    },
  },
  {
    // Prettier lays code out in 120 columns but leaves comments, strings and template literals as they were written:
    // this holds them to the same width.
    // The generated modules hold .py files' text as it is sent (python:generate), checked as Python.
    ignores: ['**/*.generated.ts'],
    rules: { 'max-len': ['error', { code: 120, tabWidth: 2 }] },
  },
);
