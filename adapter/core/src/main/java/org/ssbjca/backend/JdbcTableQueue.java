package org.ssbjca.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import org.ssbjca.api.TableRow;

/**
 * What the backends' table queues share: the statements that take no rows (complete, release, count, redeliver,
 * purge) run the same way on every backend, each backend giving its text; taking and leasing rows are the backend's
 * own.
 */
public abstract class JdbcTableQueue implements TableQueue {

    /** The queue's table. */
    protected final TableDefinition.Resolved table;

    /** @param table the resolved table */
    protected JdbcTableQueue(TableDefinition.Resolved table) {
        this.table = table;
    }

    @Override
    public TableDefinition.Resolved table() {
        return table;
    }

    /** @return removes (or marks done) a leased row if its token matches; parameters key, token */
    protected abstract String completeSql();

    /** @return ends a row's lease sooner if its token matches; parameters seconds, key, token */
    protected abstract String releaseSql();

    /** @return one more attempt for a row; parameter key */
    protected abstract String countFailureSql();

    /** @return available, waiting, leased, set aside, oldest available, now */
    protected abstract String countsSql();

    /** @return gives set-aside rows another round, or null when nothing can be set aside */
    protected abstract String redeliverSetAsideSql();

    /** @return deletes set-aside rows, or null when nothing can be set aside */
    protected abstract String purgeSetAsideSql();

    /**
     * Binds a taking's mark as the mark column holds it.
     *
     * @param ps the statement
     * @param index the parameter
     * @param mark the mark (a UUID, or its text)
     * @throws SQLException on a driver error
     */
    protected void bindMark(PreparedStatement ps, int index, Object mark) throws SQLException {
        if (table.isText("markColumn")) {
            ps.setString(index, mark.toString());
        } else {
            ps.setObject(index, mark);
        }
    }

    /** Binds what marks a row's taking: its mark, else its lease's end. */
    private void bindToken(PreparedStatement ps, int index, TableRow row) throws SQLException {
        if (table.column("markColumn") != null) {
            bindMark(ps, index, row.leaseToken());
        } else {
            ps.setTimestamp(index, (Timestamp) row.leaseToken());
        }
    }

    @Override
    public boolean complete(Connection c, TableRow row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(completeSql())) {
            ps.setObject(1, row.key());
            bindToken(ps, 2, row);
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public void release(Connection c, TableRow row, int retryAfterSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(releaseSql())) {
            ps.setInt(1, retryAfterSeconds);
            ps.setObject(2, row.key());
            bindToken(ps, 3, row);
            ps.executeUpdate();
        }
    }

    @Override
    public void countFailures(Connection c, List<TableRow> rows) throws SQLException {
        if (table.column("attemptsColumn") == null || rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(countFailureSql())) {
            for (TableRow r : rows) {
                ps.setObject(1, r.key());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public TableCounts counts(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(countsSql()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            Timestamp oldest = rs.getTimestamp(5);
            Timestamp now = rs.getTimestamp(6);
            return new TableCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                    oldest == null ? null : oldest.toLocalDateTime(), now == null ? null : now.toLocalDateTime());
        }
    }

    @Override
    public int redeliverSetAside(Connection c) throws SQLException {
        return update(c, redeliverSetAsideSql());
    }

    @Override
    public int purgeSetAside(Connection c) throws SQLException {
        return update(c, purgeSetAsideSql());
    }

    private static int update(Connection c, String text) throws SQLException {
        if (text == null) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(text)) {
            return ps.executeUpdate();
        }
    }
}
