module.exports = {
  header: '# Changelog: [mojaloop/thirdparty-sdk](https://github.com/mojaloop/thirdparty-sdk)',
  types: [
    { type: 'feat', section: 'Features' },
    { type: 'fix', section: 'Bug Fixes' },
    { type: 'chore', section: 'Maintenance' },
    { type: 'ci', section: 'CI/CD' },
    { type: 'doc', section: 'Documentation' },
    { type: 'lint', section: 'Linting' },
    { type: 'style', section: 'Style Improvements' },
    { type: 'refactor', section: 'Code Refactor' },
    { type: 'perf', section: 'Performance' },
    { type: 'test', section: 'Tests' }
  ]
}
