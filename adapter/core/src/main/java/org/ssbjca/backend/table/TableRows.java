package org.ssbjca.backend.table;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ssbjca.api.TableRow;

/**
 * Reads the rows a table queue's statement returns, whatever the backend: the columns come in one order, key,
 * payload, priority, availability, attempts, lease end, mark, order (NULL where the activation names no such column).
 */
public final class TableRows {

    /** The columns a table queue's statements return, in this order (see the class comment). */
    public static final List<ColumnRole> COLUMNS = List.of(ColumnRole.KEY, ColumnRole.PAYLOAD, ColumnRole.PRIORITY,
            ColumnRole.AVAILABLE, ColumnRole.ATTEMPTS, ColumnRole.LEASE, ColumnRole.MARK, ColumnRole.ORDER);

    private static final Comparator<Taken> TAKING_ORDER = Comparator
            .comparing((Taken t) -> t.row().priority(), Comparator.nullsLast(Comparator.<Integer>naturalOrder()))
            .thenComparing((Taken t) -> t.row().availableAt(),
                    Comparator.nullsLast(Comparator.<java.time.LocalDateTime>naturalOrder()))
            .thenComparing((Taken t) -> t.order(), TableRows::compareValues)
            .thenComparing((Taken t) -> t.row().key(), TableRows::compareValues);

    private TableRows() {
    }

    /**
     * Reads the rows a taking statement returns.
     *
     * @param ps a statement returning the {@link #COLUMNS}
     * @param table the queue's table
     * @param leased whether the rows were just leased (the attempts column then already counts this taking, and the
     *        mark, or else the lease end, is the taking's token)
     * @param sort whether to put the rows in taking order (an OUTPUT or RETURNING clause returns them in none)
     * @return the rows
     * @throws SQLException on a database error
     */
    public static List<TableRow> read(PreparedStatement ps, TableDefinition.Resolved table, boolean leased,
            boolean sort) throws SQLException {
        List<Taken> taken = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Object payload = table.binaryPayload() ? rs.getBytes(2) : rs.getString(2);
                Number priority = (Number) rs.getObject(3);
                Timestamp available = rs.getTimestamp(4);
                Number attempts = (Number) rs.getObject(5);
                Timestamp lease = rs.getTimestamp(6);
                Object mark = rs.getObject(7);
                int attempt = attempts == null ? 1 : leased ? attempts.intValue() : attempts.intValue() + 1;
                Object token = !leased ? null : table.column(ColumnRole.MARK) != null ? mark : lease;
                TableRow row = new TableRow(table.definition().table(), rs.getObject(1), payload,
                        priority == null ? null : priority.intValue(),
                        available == null ? null : available.toLocalDateTime(), Math.max(1, attempt), token);
                taken.add(new Taken(row, rs.getObject(8)));
            }
        }
        if (sort && taken.size() > 1) {
            taken.sort(TAKING_ORDER);
        }
        List<TableRow> rows = new ArrayList<>(taken.size());
        taken.forEach(t -> rows.add(t.row()));
        return rows;
    }

    /** Two values of one column (of one type); nulls last. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a instanceof Comparable c ? c.compareTo(b) : a.toString().compareTo(b.toString());
    }

    /** A row with its order column's value. */
    private record Taken(TableRow row, Object order) {
    }
}
