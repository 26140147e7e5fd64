/** Public names of the ZeroMQ Jupyter kernel: the kernel itself, its process entry and the kernelspec installer. */
export { prepareCells, startZmqKernel, type PreparedCells, type ZmqKernel, type ZmqKernelOptions } from './zmq-kernel.js';
export { runKernelProcess } from './kernel-main.js';
export { cellsRoot } from './cells-root.js';
export { ensurePoolDir, kernelPoolDir, kernelPoolEnabled, KernelPoolUnavailable, launchIdentity, PER_LAUNCH, type PoolReply, type PoolRequest } from './kernel-pool.js';
export { launchFromPool, type PoolLaunch } from './pool-launch.js';
export { servePool, type PoolDaemonOptions } from './pool-daemon.js';
export { runPoolSpare } from './pool-spare.js';
export { askPools, describePools, type PoolAnswer } from './pool-control.js';
export {
  DEFAULT_KERNEL_NAME,
  DISPLAY_NAME,
  installKernelspec,
  uninstallKernelspec,
  kernelJson,
  kernelsDir,
  jupyterDataDir,
  labExtensionsDir,
  sysPrefix,
  LAB_EXTENSION_NAME,
  LabExtensionError,
  prebuiltLabExtension,
  checkLabExtensionBuild,
  installLabExtension,
  uninstallLabExtension,
  nighthawkKernelspecs,
  type LabExtensionRemoval,
  userDataDir,
  expandHome,
  type InstallOptions,
  type KernelJson,
  type SpecLocation,
} from './kernelspec.js';
export { readConnectionFile, ConnectionFileError, type ConnectionInfo } from './connection-file.js';
export { CellHistory, type HistoryEntry, type HistoryRequest } from './cell-history.js';
export { helpTarget, withConsoleCells, type ConsoleCells, type PagerPayload } from './console-cells.js';
export { installCellOutputBridge, type CellOutputTarget } from '../kernel/index.js';
export { logoPng } from './logo-png.js';
