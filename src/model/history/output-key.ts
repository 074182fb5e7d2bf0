// An output's stable id, `${taskId}#${index}`: the key of its tile, its judgement and its kept copy.
// No dependencies, so the history store (part of the first load) can read keys without a schema library.

export const outputKey = (taskId: string, index: number): string => `${taskId}#${index}`;

/** The task id part of an output key ("task_1#0" -> "task_1"). */
export const taskIdOfKey = (key: string): string => key.slice(0, key.lastIndexOf('#'));

/** The output index part of an output key. */
export const indexOfKey = (key: string): number => Number(key.slice(key.lastIndexOf('#') + 1));
