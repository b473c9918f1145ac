package org.ssbjca.brokers;

import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkAdapter;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.List;
import java.util.function.Consumer;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.support.AdapterLog;

/**
 * Runs long-lived tasks as container work, marked long-running so that they use the container's long-running pool.
 * <p>
 * Every work is scheduled with a start timeout and a {@link jakarta.resource.spi.work.WorkListener}: WildFly's pool
 * has a bounded queue, and once its threads and its queue are taken IronJacamar's {@code scheduleWork} blocks the
 * caller until there is room, for ever without a start timeout (the deployment, a JMX call, the broker registry's
 * lock with it); with one it rejects the work when it passes ({@link WorkException#START_TIMED_OUT}). The JCA
 * specification also lets a container reject a work it accepted, through its listener, when the start timeout passes
 * before a thread takes it. Either way the work never runs, and its owner is told.
 */
public final class WorkManagerRunner implements BackgroundRunner {

    private static final AdapterLog LOG = AdapterLog.of(WorkManagerRunner.class);

    /** How long the scheduling of a background task waits at most for room in the long-running pool. */
    public static final long START_TIMEOUT_MILLIS = 10_000;

    private final WorkManager workManager;
    private final long startTimeoutMillis;

    /** @param workManager the container's work manager */
    public WorkManagerRunner(WorkManager workManager) {
        this(workManager, START_TIMEOUT_MILLIS);
    }

    /**
     * @param workManager the container's work manager
     * @param startTimeoutMillis how long a scheduling waits at most for room in its long-running pool
     */
    WorkManagerRunner(WorkManager workManager, long startTimeoutMillis) {
        this.workManager = workManager;
        this.startTimeoutMillis = startTimeoutMillis;
    }

    @Override
    public void run(String name, Runnable task, Runnable refused) {
        run(name, task, refused, startTimeoutMillis);
    }

    /**
     * Schedules the task with the start timeout {@link WorkManager#IMMEDIATE}: the work manager takes it when a thread
     * of its long-running pool, or room in its queue, is free now, and refuses it at once otherwise
     * ({@link WorkException#START_TIMED_OUT}), without holding the caller.
     */
    @Override
    public void offer(String name, Runnable task, Runnable refused) {
        run(name, task, refused, WorkManager.IMMEDIATE);
    }

    private void run(String name, Runnable task, Runnable refused, long timeoutMillis) {
        Consumer<WorkException> report = e -> {
            LOG.taskRefused(name, why(e, timeoutMillis));
            refused.run();
        };
        WorkException now = schedule(workManager, name, task, () -> { }, timeoutMillis, report);
        if (now != null) {
            report.accept(now);
        }
    }

    /**
     * Schedules a task as a long-running work, waiting at most {@code startTimeoutMillis} for the work manager to take
     * it.
     *
     * @param workManager the container's work manager
     * @param name a name for logs and thread dumps
     * @param task the task
     * @param release called when the container asks the work to stop
     * @param startTimeoutMillis the start timeout
     * @param rejectedLater told, once, on the container's thread, if the work manager rejects the work after this
     *        call returned null (it accepted it): it never runs
     * @return null if the work manager took the work; else why it refused it (the work never runs, and
     *         {@code rejectedLater} is not told)
     */
    public static WorkException schedule(WorkManager workManager, String name, Runnable task, Runnable release,
            long startTimeoutMillis, Consumer<WorkException> rejectedLater) {
        Submission submission = new Submission(rejectedLater);
        try {
            workManager.scheduleWork(new LongRunning(name, task, release), startTimeoutMillis, null, submission);
        } catch (WorkException e) {
            submission.threw();
            return e;
        }
        return submission.returned();
    }

    /**
     * Returns the reason for a log line.
     *
     * @param e why the work manager refused a work
     * @param startTimeoutMillis the start timeout it was given
     */
    public static String why(WorkException e, long startTimeoutMillis) {
        if (WorkException.START_TIMED_OUT.equals(e.getErrorCode())) {
            return startTimeoutMillis == WorkManager.IMMEDIATE ? "no thread or room in its queue now"
                    : "no thread or room in its queue within the start timeout of " + startTimeoutMillis + " ms";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The listener of one scheduling: tells a rejection that comes after the call returned, once. */
    private static final class Submission extends WorkAdapter {
        private static final int SUBMITTING = 0;
        private static final int ACCEPTED = 1;
        private static final int SETTLED = 2;
        private final Consumer<WorkException> rejectedLater;
        private int state = SUBMITTING;
        /** A rejection heard while the call ran (IronJacamar tells the listener, then throws). */
        private WorkException duringCall;

        Submission(Consumer<WorkException> rejectedLater) {
            this.rejectedLater = rejectedLater;
        }

        @Override
        public void workRejected(WorkEvent event) {
            WorkException e = event.getException() != null ? event.getException()
                    : new WorkRejectedException("rejected by the work manager");
            synchronized (this) {
                if (state == SUBMITTING) {
                    duringCall = e;
                    return;
                }
                if (state != ACCEPTED) {
                    return;
                }
                state = SETTLED;
            }
            rejectedLater.accept(e);
        }

        @Override
        public synchronized void workStarted(WorkEvent event) {
            state = SETTLED; // a work that started is not rejected
        }

        synchronized void threw() {
            state = SETTLED;
        }

        /** @return the rejection heard during a call that did not throw, or null: accepted */
        synchronized WorkException returned() {
            if (state == SUBMITTING) {
                state = duringCall == null ? ACCEPTED : SETTLED;
            }
            return duringCall;
        }
    }

    private static final class LongRunning implements Work, WorkContextProvider {
        private static final long serialVersionUID = 1L;
        private final transient Runnable task;
        private final transient Runnable release;
        private final String name;

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
            hints.setHint(HintsContext.LONGRUNNING_HINT, true);
            return List.of(hints);
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
