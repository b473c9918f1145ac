package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.TableCounts;
import org.ssbjca.backend.TableDefinition;
import org.ssbjca.backend.TableQueue;
import org.ssbjca.backend.TableRows;

/** A work queue on an application's table, on SQL Server (the T-SQL: {@link TSqlTable}). */
final class SqlServerTableQueue implements TableQueue {

    private final TableDefinition.Resolved table;
    private final TSqlTable sql;

    SqlServerTableQueue(TableDefinition.Resolved table) {
        this.table = table;
        this.sql = new TSqlTable(table);
    }

    @Override
    public TableDefinition.Resolved table() {
        return table;
    }

    @Override
    public List<TableRow> take(Connection c, int max) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.take(max))) {
            return TableRows.read(ps, table, false, true);
        }
    }

    @Override
    public List<TableRow> lease(Connection c, int max) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.lease(max))) {
            ps.setInt(1, table.definition().leaseSeconds());
            if (table.column("markColumn") != null) {
                ps.setString(2, UUID.randomUUID().toString());
            }
            return TableRows.read(ps, table, true, true);
        }
    }

    private void bindToken(PreparedStatement ps, int index, TableRow row) throws SQLException {
        if (table.column("markColumn") != null) {
            ps.setString(index, row.leaseToken().toString());
        } else {
            ps.setTimestamp(index, (Timestamp) row.leaseToken());
        }
    }

    @Override
    public boolean complete(Connection c, TableRow row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.complete())) {
            ps.setObject(1, row.key());
            bindToken(ps, 2, row);
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public void release(Connection c, TableRow row, int retryAfterSeconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.release())) {
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
        try (PreparedStatement ps = c.prepareStatement(sql.countFailure())) {
            for (TableRow r : rows) {
                ps.setObject(1, r.key());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public TableCounts counts(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.counts()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            Timestamp oldest = rs.getTimestamp(5);
            Timestamp now = rs.getTimestamp(6);
            return new TableCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                    oldest == null ? null : oldest.toLocalDateTime(), now == null ? null : now.toLocalDateTime());
        }
    }

    @Override
    public int redeliverSetAside(Connection c) throws SQLException {
        return update(c, sql.redeliverSetAside());
    }

    @Override
    public int purgeSetAside(Connection c) throws SQLException {
        return update(c, sql.purgeSetAside());
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
