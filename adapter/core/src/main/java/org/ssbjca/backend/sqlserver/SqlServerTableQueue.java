package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.JdbcTableQueue;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableRows;
import org.ssbjca.backend.table.TableSql;

/** A work queue on an application's table, on SQL Server (the T-SQL: {@link TSqlTable}). */
final class SqlServerTableQueue extends JdbcTableQueue {

    private final TSqlTable sql;

    /**
     * @param table the resolved table
     * @throws IllegalArgumentException when a time column has a type the T-SQL cannot compare
     *     ({@link TSqlTable#checkTimeTypes})
     */
    SqlServerTableQueue(TableDefinition.Resolved table) {
        super(table);
        TSqlTable.checkTimeTypes(table);
        this.sql = new TSqlTable(table);
    }

    @Override
    public List<TableRow> take(Connection c, int max, List<Object> held) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.take(max, TableSql.heldParameters(held.size())))) {
            bindHeld(ps, 1, held);
            return TableRows.read(ps, table, false, true);
        }
    }

    @Override
    public List<TableRow> lease(Connection c, int max) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.lease(max))) {
            ps.setInt(1, table.definition().leaseSeconds());
            if (table.column(ColumnRole.MARK) != null) {
                bindMark(ps, 2, UUID.randomUUID());
            }
            return TableRows.read(ps, table, true, true);
        }
    }

    /**
     * The count is the result set {@link TSqlTable#SPELLING}'s counted statements return: under SET NOCOUNT ON
     * mssql-jdbc has no update count to give ({@code executeUpdate} returns -1), and without it the count it gives
     * may be a trigger's.
     */
    @Override
    protected int rowsChanged(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    /** mssql-jdbc takes a uniqueidentifier as its text. */
    @Override
    protected void bindMark(PreparedStatement ps, int index, Object mark) throws SQLException {
        ps.setString(index, mark.toString());
    }

    @Override
    protected TableSql shared() {
        return sql.shared();
    }
}
