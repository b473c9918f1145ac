package org.ssbjca.backend.table;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.TableRow;

/**
 * What the backends' table queues share: the statements that take no rows (complete, release, give back, count,
 * redeliver, purge) run the same way on every backend, their text from {@link TableSql} in the backend's spelling;
 * taking and leasing rows are the backend's own.
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

    /** Returns the statements every backend shares, in this backend's spelling. */
    protected abstract TableSql shared();

    /**
     * Binds a taking's mark as the mark column holds it.
     *
     * @param ps the statement
     * @param index the parameter
     * @param mark the mark (a UUID, or its text)
     * @throws SQLException on a driver error
     */
    protected void bindMark(PreparedStatement ps, int index, Object mark) throws SQLException {
        if (table.isText(ColumnRole.MARK)) {
            ps.setString(index, mark.toString());
        } else {
            ps.setObject(index, mark);
        }
    }

    /**
     * Binds the keys a taking leaves out, filling the statement's {@link TableSql#heldParameters} with the last.
     *
     * @return the next parameter's index
     */
    protected static int bindHeld(PreparedStatement ps, int index, List<Object> held) throws SQLException {
        int n = TableSql.heldParameters(held.size());
        for (int i = 0; i < n; i++) {
            ps.setObject(index + i, held.get(Math.min(i, held.size() - 1)));
        }
        return index + n;
    }

    /** Binds what marks a row's taking: its mark, else its lease's end. */
    private void bindToken(PreparedStatement ps, int index, TableRow row) throws SQLException {
        if (table.column(ColumnRole.MARK) != null) {
            bindMark(ps, index, row.leaseToken());
        } else {
            ps.setTimestamp(index, (Timestamp) row.leaseToken());
        }
    }

    @Override
    public boolean complete(Connection c, TableRow row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(shared().complete())) {
            ps.setObject(1, row.key());
            bindToken(ps, 2, row);
            return rowsChanged(ps) == 1;
        }
    }

    @Override
    public void release(Connection c, TableRow row, int retryAfterSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(shared().release())) {
            ps.setInt(1, retryAfterSeconds);
            ps.setObject(2, row.key());
            bindToken(ps, 3, row);
            ps.executeUpdate();
        }
    }

    @Override
    public void giveBack(Connection c, TableRow row, int retryAfterSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(shared().giveBack())) {
            ps.setInt(1, retryAfterSeconds);
            ps.setObject(2, row.key());
            bindToken(ps, 3, row);
            ps.executeUpdate();
        }
    }

    @Override
    public void countFailures(Connection c, List<TableRow> rows) throws SQLException {
        if (table.column(ColumnRole.ATTEMPTS) == null || rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(shared().countFailure())) {
            for (TableRow r : rows) {
                ps.setObject(1, r.key());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public void recordErrors(Connection c, List<TableRow> rows, String error) throws SQLException {
        if (table.column(ColumnRole.ERROR) == null || rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(shared().recordError())) {
            for (TableRow r : rows) {
                ps.setString(1, table.errorText(error));
                ps.setObject(2, r.key());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public void setAside(Connection c, List<TableRow> rows) throws SQLException {
        String text = shared().setAside();
        if (text == null || rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(text)) {
            for (TableRow r : rows) {
                ps.setObject(1, r.key());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public TableCounts counts(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(shared().counts()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            Timestamp oldest = rs.getTimestamp(5);
            Timestamp now = rs.getTimestamp(6);
            return new TableCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                    oldest == null ? null : oldest.toLocalDateTime(), now == null ? null : now.toLocalDateTime(),
                    rs.getLong(7));
        }
    }

    @Override
    public int redeliverSetAside(Connection c) throws SQLException {
        return update(c, shared().redeliverSetAside());
    }

    @Override
    public List<SetAsideRow> setAsideRows(Connection c, int max) throws SQLException {
        String text = shared().setAsideRows();
        if (text == null) {
            return List.of();
        }
        List<SetAsideRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(text)) {
            ps.setMaxRows(max);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    java.sql.Timestamp failedAt = rs.getTimestamp(3);
                    rows.add(new SetAsideRow(rs.getObject(1), rs.getString(2),
                            failedAt == null ? null : failedAt.toInstant()));
                }
            }
        }
        return rows;
    }

    @Override
    public int redeliverSetAside(Connection c, List<Object> keys) throws SQLException {
        String text = keys.isEmpty() ? null : shared().redeliverSetAside(keys.size());
        if (text == null) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(text)) {
            for (int i = 0; i < keys.size(); i++) {
                ps.setObject(i + 1, keys.get(i));
            }
            return rowsChanged(ps);
        }
    }

    @Override
    public int purgeSetAside(Connection c) throws SQLException {
        return update(c, shared().purgeSetAside());
    }

    private int update(Connection c, String text) throws SQLException {
        if (text == null) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(text)) {
            return rowsChanged(ps);
        }
    }

    /**
     * Runs a statement of {@link TableSql}'s {@code counted} spelling and reads how many rows it changed.
     *
     * @param ps the statement, its parameters bound
     * @return the rows changed
     * @throws SQLException on a database error
     */
    protected int rowsChanged(PreparedStatement ps) throws SQLException {
        return ps.executeUpdate();
    }
}
