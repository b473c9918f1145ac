package org.ssbjca.sample.demo;

/**
 * The task schedulers' execution log on JMX, under {@code org.ssbjca.sample:type=ExecutionLog}: what runs where
 * (seed 001's ExecutionStatus view and ExecutionLog table).
 */
public interface ExecutionLogMXBean {

    /** @return the tasks running now: scheduler, caller, task, stage, reader, start */
    String[] getRunningTasks();

    /** @return the latest 20 schedulers */
    String[] getSchedulers();

    /**
     * @param schedulerId a scheduler's id (its conversation handle)
     * @return its execution log with a time bar per task
     */
    String executionLog(String schedulerId);
}
