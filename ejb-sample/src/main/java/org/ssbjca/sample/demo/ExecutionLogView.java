package org.ssbjca.sample.demo;

import org.ssbjca.sample.scheduler.ExecutionLog;
import org.ssbjca.sample.scheduler.StageTimeline;

/** {@link ExecutionLogMXBean} over the {@link ExecutionLog} EJB. */
final class ExecutionLogView implements ExecutionLogMXBean {

    private final ExecutionLog log;

    ExecutionLogView(ExecutionLog log) {
        this.log = log;
    }

    @Override
    public String[] getRunningTasks() {
        return log.running().stream().map(t -> String.format(
                "scheduler %s (%s), task %d '%s' of stage %d, on %s since %s", t.schedulerId(), t.caller(),
                t.taskNo(), t.task(), t.stage(), t.reader(), t.startedAt()))
                .toArray(String[]::new);
    }

    @Override
    public String[] getSchedulers() {
        return log.schedulers(20).toArray(String[]::new);
    }

    @Override
    public String executionLog(String schedulerId) {
        return StageTimeline.render(log.tasks(schedulerId));
    }
}
