package org.ssbjca.sample.scheduler;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.sample.Jdbc;

/**
 * Decides which of a scheduler's tasks go out next, and sends them: the one place where stage order and the
 * concurrency limit are enforced. It runs inside the transaction of whoever changed the scheduler's state: the
 * caller submitting tasks ({@link TaskScheduler#submit}) and the worker finishing one ({@link TaskWorker}).
 *
 * <p>The rule, read from the execution log under the scheduler's row lock:
 * <ol>
 *   <li>the scheduler's current stage is the lowest stage of its tasks that have not ended;</li>
 *   <li>only PENDING tasks of that stage may go, in the order they were submitted;</li>
 *   <li>and only while fewer than {@code concurrency} of its tasks are SENT or RUNNING.</li>
 * </ol>
 * A task that goes out becomes SENT and its {@code AsyncSent} is sent on the scheduler's conversation, in the same
 * transaction. So a task of a later stage is never even on the queue before every task of every earlier stage has
 * ended (and its end committed), and a scheduler never has more than {@code concurrency} tasks on the queue or in work.
 *
 * <p>Why here and not, as seed 002 does, in the readers with application locks: a reader that takes a task of a
 * later stage and waits for the earlier ones holds a reader that other schedulers could use, and a scheduler with
 * many tasks would occupy every reader. Here readers never wait for anything: whatever is on the queue may run now.
 * Fairness between schedulers follows from the limit: a scheduler has at most {@code concurrency} messages on the
 * queue, so another scheduler's tasks are never behind more than that many of them, whatever order the backend
 * takes conversation groups in (the portable backends also take groups in turn; SQL Server takes the oldest message
 * first).
 *
 * <p>Locking order, everywhere: the scheduler's row first, then task rows, then the conversation.
 */
final class Dispatcher {

    static final String PENDING = "PENDING";
    static final String SENT = "SENT";
    static final String RUNNING = "RUNNING";
    static final String ENDED = "ENDED";
    static final String CANCELLED = "CANCELLED";
    static final String OPEN = "OPEN";
    static final String CLOSED = "CLOSED";

    private Dispatcher() {
    }

    /** A scheduler's row, read under its lock. */
    record Row(String schedulerId, String caller, int concurrency, String state) {
        boolean open() {
            return OPEN.equals(state);
        }

        Conversation conversation() {
            return Conversation.ofHandle(UUID.fromString(schedulerId));
        }
    }

    /**
     * Locks the scheduler's row until the transaction ends (an UPDATE, which every database turns into a row lock)
     * and reads it.
     *
     * @param submitted how many tasks are being submitted (added to the row's count), 0 for none
     * @return the row, or null if there is no such scheduler
     */
    static Row lock(Connection c, String schedulerId, int submitted) {
        if (Jdbc.update(c, "UPDATE sample_scheduler SET submitted = submitted + ? WHERE scheduler_id = ?",
                submitted, schedulerId) == 0) {
            return null;
        }
        return Jdbc.first(c, "SELECT caller, concurrency, state FROM sample_scheduler WHERE scheduler_id = ?",
                rs -> new Row(schedulerId, rs.getString(1), rs.getInt(2), rs.getString(3)), schedulerId);
    }

    /**
     * Sends the tasks that may go now. The caller holds the scheduler's row lock ({@link #lock}).
     *
     * @return how many tasks went out
     */
    static int dispatch(ServiceBrokerConnection broker, Row scheduler) {
        Connection c = broker.jdbcConnection();
        String id = scheduler.schedulerId();
        long inFlight = Jdbc.count(c, "SELECT COUNT(*) FROM sample_execution_log WHERE scheduler_id = ?"
                + " AND state IN ('" + SENT + "', '" + RUNNING + "')", id);
        int free = (int) (scheduler.concurrency() - inFlight);
        if (free <= 0) {
            return 0;
        }
        Integer stage = Jdbc.first(c, "SELECT MIN(stage) FROM sample_execution_log WHERE scheduler_id = ?"
                + " AND state IN ('" + PENDING + "', '" + SENT + "', '" + RUNNING + "')", rs -> {
                    int s = rs.getInt(1);
                    return rs.wasNull() ? null : s;
                }, id);
        if (stage == null) {
            return 0;
        }
        List<TaskMessage> next = Jdbc.list(c, free, "SELECT task_no, stage, work_millis, task FROM sample_execution_log"
                + " WHERE scheduler_id = ? AND state = '" + PENDING + "' AND stage = ? ORDER BY task_no",
                rs -> new TaskMessage(id, rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getString(4)), id, stage);
        Instant now = Instant.now();
        for (TaskMessage task : next) {
            Jdbc.update(c, "UPDATE sample_execution_log SET state = '" + SENT + "', sent_at = ?"
                    + " WHERE scheduler_id = ? AND task_no = ?", now, id, task.taskNo());
            broker.sendText(scheduler.conversation(), TaskMessage.SENT, task.toXml());
        }
        return next.size();
    }
}
