package org.ssbjca.sample.scheduler;

import java.io.Serializable;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.ssbjca.sample.Jdbc;

/**
 * One row of the execution log ({@code sample_execution_log}, seed 001's ExecutionLog): who submitted the task to
 * which scheduler, which reader ran it, and when.
 *
 * @param schedulerId the scheduler (its conversation handle)
 * @param taskNo the task's number within its scheduler, from 1
 * @param caller who opened the scheduler
 * @param stage the task's stage
 * @param task the task's name
 * @param workMillis how long its work takes
 * @param state PENDING, SENT, RUNNING, ENDED or CANCELLED
 * @param reader the reader (container thread) that ran it, or null
 * @param submittedAt when it was submitted
 * @param sentAt when its AsyncSent was sent, or null
 * @param startedAt when a reader started it, or null
 * @param endedAt when it ended, or null
 * @param syncedAt when the caller's synchronization received its AsyncDone, or null
 * @param outcome OK, or what went wrong; null while it has not ended
 */
public record TaskRecord(String schedulerId, int taskNo, String caller, int stage, String task, int workMillis,
        String state, String reader, Instant submittedAt, Instant sentAt, Instant startedAt, Instant endedAt,
        Instant syncedAt, String outcome) implements Serializable {

    static final String COLUMNS = "scheduler_id, task_no, caller, stage, task, work_millis, state, reader,"
            + " submitted_at, sent_at, started_at, ended_at, synced_at, outcome";

    static TaskRecord read(ResultSet rs) throws SQLException {
        return new TaskRecord(rs.getString("scheduler_id"), rs.getInt("task_no"), rs.getString("caller"),
                rs.getInt("stage"), rs.getString("task"), rs.getInt("work_millis"), rs.getString("state"),
                rs.getString("reader"), Jdbc.instant(rs, "submitted_at"), Jdbc.instant(rs, "sent_at"),
                Jdbc.instant(rs, "started_at"), Jdbc.instant(rs, "ended_at"), Jdbc.instant(rs, "synced_at"),
                rs.getString("outcome"));
    }
}
