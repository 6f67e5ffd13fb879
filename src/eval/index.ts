/** The eval subsystem's front door: what other subsystems may import from it. */
export { answerRecord } from './answer-records.js';
export { defaultAnswersFileName, writeAnswersFile } from './answers-file.js';
export { askQuestions } from './ask.js';
export { evalRunInput } from './catalog-run.js';
export { DATA_EXPECTED, loadQuestions } from './data-files.js';
export { formatFailureNotice, formatResultLines, formatSubjectTable } from './report.js';
export { evalBackendAdapter, samplingBody } from './request-body.js';
export { gradeRun } from './results.js';
export { evalTask } from './tasks.js';
export { EVAL_TASKS, type EvalTaskName } from './types.js';
