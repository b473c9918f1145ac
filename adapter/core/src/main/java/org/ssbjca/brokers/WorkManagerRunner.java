package org.ssbjca.brokers;

import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.util.List;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BackgroundRunner;

/** Runs long-lived tasks as container work, marked long-running so that they use the container's long-running pool. */
public final class WorkManagerRunner implements BackgroundRunner {

    private final WorkManager workManager;

    /** @param workManager the container's work manager */
    public WorkManagerRunner(WorkManager workManager) {
        this.workManager = workManager;
    }

    @Override
    public void run(String name, Runnable task) {
        try {
            workManager.scheduleWork(new LongRunning(name, task), WorkManager.INDEFINITE, null, null);
        } catch (WorkException e) {
            throw new BrokerException("the work manager refused " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Wraps a task as a long-running {@link Work}.
     *
     * @param name a name for logs and thread dumps
     * @param task the task
     * @param release called when the container asks the work to stop
     * @return the work
     */
    public static Work longRunning(String name, Runnable task, Runnable release) {
        return new LongRunning(name, task, release);
    }

    private static final class LongRunning implements Work, WorkContextProvider {
        private static final long serialVersionUID = 1L;
        private final transient Runnable task;
        private final transient Runnable release;
        private final String name;

        LongRunning(String name, Runnable task) {
            this(name, task, () -> { });
        }

        LongRunning(String name, Runnable task, Runnable release) {
            this.name = name;
            this.task = task;
            this.release = release;
        }

        @Override
        public void run() {
            task.run();
        }

        @Override
        public void release() {
            release.run();
        }

        @Override
        public List<WorkContext> getWorkContexts() {
            HintsContext hints = new HintsContext();
            hints.setName(name);
            hints.setHint(HintsContext.LONGRUNNING_HINT, Boolean.TRUE);
            return List.of(hints);
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
