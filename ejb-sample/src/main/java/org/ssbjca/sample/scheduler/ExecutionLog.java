package org.ssbjca.sample.scheduler;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Instant;
import java.util.List;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.Jdbc;

/**
 * The execution log ({@code sample_execution_log}): what runs where. Seed 001 logs the start of a task before it
 * runs, so that its ExecutionStatus view shows the running tasks; {@link #started} does the same, in a transaction
 * of its own, and the worker's delivery transaction records the end together with the AsyncDone it sends.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ExecutionLog {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /**
     * Marks a task RUNNING on this reader, committed at once.
     *
     * @return false when the task is no longer waiting to start (its scheduler was closed): skip it
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean started(String schedulerId, int taskNo, String reader) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.update(broker.jdbcConnection(), "UPDATE sample_execution_log SET state = ?, reader = ?,"
                    + " started_at = ? WHERE scheduler_id = ? AND task_no = ? AND state = ?", Dispatcher.RUNNING,
                    reader, Instant.now(), schedulerId, taskNo, Dispatcher.SENT) == 1;
        }
    }

    /**
     * @param schedulerId a scheduler
     * @return its tasks, in the order they were submitted
     */
    public List<TaskRecord> tasks(String schedulerId) {
        return query("SELECT " + TaskRecord.COLUMNS + " FROM sample_execution_log WHERE scheduler_id = ?"
                + " ORDER BY task_no", schedulerId);
    }

    /** @return the tasks running now, in every scheduler (seed 001's ExecutionStatus) */
    public List<TaskRecord> running() {
        return query("SELECT " + TaskRecord.COLUMNS + " FROM sample_execution_log WHERE state = ?"
                + " ORDER BY started_at", Dispatcher.RUNNING);
    }

    /**
     * @param max at most this many
     * @return the latest schedulers: id, caller, state, concurrency, tasks submitted, opened at
     */
    public List<String> schedulers(int max) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.list(broker.jdbcConnection(), max, "SELECT scheduler_id, caller, state, concurrency,"
                    + " submitted, opened_at FROM sample_scheduler ORDER BY opened_at DESC", rs -> String.format(
                    "%s  %-12s %-6s concurrency %d, %d task(s), opened %s", rs.getString(1), rs.getString(2),
                    rs.getString(3), rs.getInt(4), rs.getInt(5), Jdbc.instant(rs, "opened_at")));
        }
    }

    private List<TaskRecord> query(String sql, Object... args) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.list(broker.jdbcConnection(), sql, TaskRecord::read, args);
        }
    }
}
