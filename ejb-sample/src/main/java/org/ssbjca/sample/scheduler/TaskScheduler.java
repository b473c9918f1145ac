package org.ssbjca.sample.scheduler;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.Jdbc;

/**
 * Parallel task scheduling (seeds 001 and 002) as an EJB: open a scheduler, submit tasks tagged with a stage,
 * wait until all of them finished, close it.
 *
 * <pre>{@code
 * Scheduler s = scheduler.open("nightly", 5);
 * scheduler.submit(s, List.of(new TaskSpec(100, "load a", 1010), new TaskSpec(100, "load b", 1010),
 *                             new TaskSpec(200, "merge", 920)));
 * scheduler.awaitAll(s, Duration.ofMinutes(1));
 * scheduler.close(s);
 * }</pre>
 *
 * <p>A scheduler is one dialog from AsyncInitiatorService to AsyncTargetService, used for all its tasks (seed 001:
 * never one conversation per task, which would fill the conversation endpoints). Each task is a row of the
 * execution log and, once it may run, an {@code AsyncSent} message on that dialog; the {@link TaskWorker} readers
 * run it and answer {@code AsyncDone} on the same dialog. Tasks of one stage run at the same time, up to the
 * scheduler's concurrency; a task of a later stage starts only when every task of every earlier stage has ended:
 * see {@link Dispatcher} for how and why. Waiting ({@link #awaitAll}) is seed 001's Synchronization: a RECEIVE of
 * AsyncDone messages filtered by the scheduler's conversation.
 */
@Stateless
public class TaskScheduler {

    static final String INITIATOR_SERVICE = "AsyncInitiatorService";
    static final String INITIATOR_QUEUE = "AsyncInitiatorQueue";
    static final String TARGET_SERVICE = "AsyncTargetService";
    static final String CONTRACT = "AsyncContract";
    private static final Duration RECEIVE_SLICE = Duration.ofSeconds(1);

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private SessionContext context;

    /**
     * Opens a scheduler (seed 001's GetScheduler): begins its dialog and records it.
     *
     * @param caller who opens it, for the execution log
     * @param concurrency how many of its tasks may run at once, 1 to 256
     * @return the scheduler
     */
    public Scheduler open(String caller, int concurrency) {
        if (concurrency < 1 || concurrency > 256) {
            throw new IllegalArgumentException("concurrency must be between 1 and 256: " + concurrency);
        }
        if (caller == null || caller.isBlank() || caller.length() > 128) {
            throw new IllegalArgumentException("caller must have 1 to 128 characters");
        }
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Conversation dialog = broker.beginDialog(INITIATOR_SERVICE, TARGET_SERVICE, CONTRACT);
            Scheduler s = new Scheduler(dialog, caller, concurrency);
            Jdbc.update(broker.jdbcConnection(), "INSERT INTO sample_scheduler (scheduler_id, caller, concurrency,"
                    + " state, submitted, opened_at) VALUES (?, ?, ?, ?, 0, ?)", s.id(), caller, concurrency,
                    Dispatcher.OPEN, Instant.now());
            return s;
        }
    }

    /**
     * Submits one task (seed 001's ExecAsync).
     *
     * @return the task's number in the scheduler
     * @see #submit(Scheduler, List)
     */
    public int submit(Scheduler scheduler, TaskSpec task) {
        return submit(scheduler, List.of(task)).get(0);
    }

    /**
     * Submits tasks, in this transaction: each becomes a row of the execution log, and those that may run now go
     * out at once. Stages must not decrease, in the list and from the highest stage of the scheduler's tasks that
     * have not ended (a task cannot be put before work that already runs after it).
     *
     * @param scheduler an open scheduler
     * @param tasks the tasks, in order
     * @return their numbers in the scheduler
     * @throws IllegalStateException if the scheduler is closed
     * @throws IllegalArgumentException if the stages decrease
     */
    public List<Integer> submit(Scheduler scheduler, List<TaskSpec> tasks) {
        if (tasks.isEmpty()) {
            return List.of();
        }
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Connection c = broker.jdbcConnection();
            Dispatcher.Row row = Dispatcher.lock(c, scheduler.id(), tasks.size());
            if (row == null || !row.open()) {
                throw new IllegalStateException("scheduler " + scheduler.id() + " is not open");
            }
            int last = Jdbc.first(c, "SELECT MAX(stage) FROM sample_execution_log WHERE scheduler_id = ?"
                    + " AND state IN ('PENDING', 'SENT', 'RUNNING')", rs -> {
                        int stage = rs.getInt(1);
                        return rs.wasNull() ? Integer.MIN_VALUE : stage;
                    }, scheduler.id());
            int next = (int) Jdbc.count(c, "SELECT submitted FROM sample_scheduler WHERE scheduler_id = ?",
                    scheduler.id()) - tasks.size() + 1;
            Instant now = Instant.now();
            List<Integer> numbers = new ArrayList<>();
            for (TaskSpec t : tasks) {
                if (t.stage() < last) {
                    throw new IllegalArgumentException("stage " + t.stage() + " comes after stage " + last);
                }
                last = t.stage();
                Jdbc.update(c, "INSERT INTO sample_execution_log (scheduler_id, task_no, caller, stage, task,"
                        + " work_millis, state, submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", scheduler.id(), next,
                        row.caller(), t.stage(), t.name(), t.workMillis(), Dispatcher.PENDING, now);
                numbers.add(next++);
            }
            Dispatcher.dispatch(broker, row);
            return numbers;
        }
    }

    /**
     * Waits until every task submitted so far has finished (seed 001's Synchronization, called until nothing is
     * outstanding): receives the AsyncDone messages of this scheduler's conversation only, each RECEIVE in a
     * transaction of its own. Call it outside the transaction that submitted the tasks: they go out when it commits.
     *
     * @param scheduler the scheduler
     * @param timeout how long to wait in all
     * @return true when every task finished; false when the time ran out first
     * @throws IllegalStateException if the scheduler's conversation ended (an Error or EndDialog arrived)
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public boolean awaitAll(Scheduler scheduler, Duration timeout) {
        TaskScheduler self = context.getBusinessObject(TaskScheduler.class);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (outstanding(scheduler) > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (self.synchronize(scheduler, Duration.ofNanos(Math.min(left, RECEIVE_SLICE.toNanos()))) < 0) {
                throw new IllegalStateException("the conversation of scheduler " + scheduler.id() + " has ended");
            }
        }
        return true;
    }

    /**
     * One Synchronization: a RECEIVE of this scheduler's AsyncDone messages ({@code WHERE conversation_handle = ...}),
     * recording each in the execution log, in a transaction of its own.
     *
     * @param scheduler the scheduler
     * @param wait how long to wait for a message
     * @return how many AsyncDone messages arrived; -1 when the conversation ended instead
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int synchronize(Scheduler scheduler, Duration wait) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            List<BrokerMessage> got = broker.receive(ReceiveRequest.from(INITIATOR_QUEUE)
                    .conversation(scheduler.conversation()).top(100).timeout(wait));
            int done = 0;
            Instant now = Instant.now();
            for (BrokerMessage m : got) {
                if (TaskMessage.DONE.equals(m.messageTypeName())) {
                    Jdbc.update(broker.jdbcConnection(), "UPDATE sample_execution_log SET synced_at = ?"
                            + " WHERE scheduler_id = ? AND task_no = ?", now, scheduler.id(),
                            TaskMessage.doneTaskNo(m));
                    done++;
                } else if (m.isEndDialog() || m.isError()) {
                    broker.endConversation(m.conversation());
                    Jdbc.update(broker.jdbcConnection(), "UPDATE sample_scheduler SET state = ?, closed_at = ?"
                            + " WHERE scheduler_id = ?", Dispatcher.CLOSED, now, scheduler.id());
                    return -1;
                }
            }
            return done;
        }
    }

    /**
     * @return how many of the scheduler's tasks have neither been cancelled nor reported done to the caller; read
     *         on its own, outside the RECEIVE's transaction
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long outstanding(Scheduler scheduler) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.count(broker.jdbcConnection(), "SELECT COUNT(*) FROM sample_execution_log"
                    + " WHERE scheduler_id = ? AND synced_at IS NULL AND state <> 'CANCELLED'", scheduler.id());
        }
    }

    /**
     * Closes the scheduler (seed 001's ReleaseScheduler): tasks that have not started are cancelled (a worker that
     * takes one of them skips it), tasks in work finish without answering, and the dialog ends.
     *
     * @param scheduler the scheduler
     */
    public void close(Scheduler scheduler) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Connection c = broker.jdbcConnection();
            Dispatcher.Row row = Dispatcher.lock(c, scheduler.id(), 0);
            if (row == null || !row.open()) {
                return;
            }
            Instant now = Instant.now();
            Jdbc.update(c, "UPDATE sample_scheduler SET state = ?, closed_at = ? WHERE scheduler_id = ?",
                    Dispatcher.CLOSED, now, scheduler.id());
            Jdbc.update(c, "UPDATE sample_execution_log SET state = ?, outcome = ? WHERE scheduler_id = ?"
                    + " AND state IN (?, ?)", Dispatcher.CANCELLED, "scheduler closed", scheduler.id(),
                    Dispatcher.PENDING, Dispatcher.SENT);
            broker.endConversation(scheduler.conversation());
        }
    }
}
