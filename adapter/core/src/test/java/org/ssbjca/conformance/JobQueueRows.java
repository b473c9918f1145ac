package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Locale;

/** Rows of seed 003's {@code Job_Queue}, for the table queue tests of every package. */
public final class JobQueueRows {

    private JobQueueRows() {
    }

    /**
     * Inserts a job available {@code availableInSeconds} from now by the database's clock (the one the queue compares
     * with); the caller commits.
     *
     * @param c a connection
     * @param table the job queue's table
     * @param priority the job's priority (lowest first)
     * @param availableInSeconds when it becomes available, from now (negative: in the past)
     * @param payload the job's payload
     * @throws SQLException on a database error
     */
    public static void insert(Connection c, String table, int priority, int availableInSeconds, String payload)
            throws SQLException {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        String available = product.contains("microsoft") ? "DATEADD(SECOND, ?, SYSDATETIME())"
                : product.contains("postgres") ? "LOCALTIMESTAMP + make_interval(secs => ?)"
                : "DATEADD(SECOND, ?, LOCALTIMESTAMP)";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                + " (Priority, Available_Date, Payload) VALUES (?, " + available + ", ?)")) {
            ps.setInt(1, priority);
            ps.setInt(2, availableInSeconds);
            ps.setString(3, payload);
            ps.executeUpdate();
        }
    }
}
