// Merged into @jupyterlab/builder's webpack config (package.json jupyterlab.webpackConfig).
// Module ids by order of use instead of hashed identifiers: the container entry's identifier holds the
// absolute path of lib/index.js, so hashed ids (and the remoteEntry hash) would change with the checkout's
// location, and a build could not be compared with the committed one.
module.exports = { optimization: { moduleIds: 'natural' } };
