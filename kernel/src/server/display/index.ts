/** The Session kernel host: cells submitted to the Session, run displays, the run view and the notebook bridge. */
export { createKernelHost, transformCell } from './session-host.js';
export { displayLedger, operatorApproval, parseAnswer, setNotebookChannel, setPersistedLedger, type OperatorApprovalOptions } from './notebook-bridge.js';
export { RunDisplays } from './run-displays.js';
export { RunView, ledgerEntry, operationLine, operationPayload } from './run-view.js';
export { exportLedgerHtml, ledgerReportHtml, type LedgerReportOptions } from './ledger-report.js';
