package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.JdbcTableQueue;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableRows;
import org.ssbjca.backend.table.TableSql;

/** A work queue on an application's table, on PostgreSQL or H2 (the SQL: {@link PortableTableSql}). */
final class PortableTableQueue extends JdbcTableQueue {

    /** H2: candidates read per look, beyond the rows wanted (rows other readers hold are skipped). */
    private static final int H2_EXTRA_CANDIDATES = 32;
    /** H2: looks past held rows before giving up for this turn. */
    private static final int H2_PAGES = 16;

    private final boolean postgresql;
    private final PortableTableSql sql;
    private final ConcurrentMap<Long, String> takeByTop = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, String> leaseByTop = new ConcurrentHashMap<>();

    PortableTableQueue(boolean postgresql, TableDefinition.Resolved table) {
        super(table);
        this.postgresql = postgresql;
        this.sql = new PortableTableSql(postgresql, table);
    }

    @Override
    public List<TableRow> take(Connection c, int max, List<Object> held) throws SQLException {
        int n = TableSql.heldParameters(held.size());
        if (postgresql) {
            try (PreparedStatement ps = c.prepareStatement(takeByTop.computeIfAbsent((long) max << 32 | n,
                    k -> sql.pgTake(max, n)))) {
                bindHeld(ps, 1, held);
                return read(ps, false, true);
            }
        }
        List<TableRow> rows = h2Lock(c, max, false, held);
        try (PreparedStatement ps = c.prepareStatement(sql.disposeOne())) {
            for (TableRow r : rows) {
                ps.setObject(1, r.key());
                ps.addBatch();
            }
            if (!rows.isEmpty()) {
                ps.executeBatch();
            }
        }
        return rows;
    }

    @Override
    public List<TableRow> lease(Connection c, int max) throws SQLException {
        UUID mark = UUID.randomUUID();
        if (postgresql) {
            try (PreparedStatement ps = c.prepareStatement(leaseByTop.computeIfAbsent(max, sql::pgLease))) {
                bindLease(ps, mark);
                return read(ps, true, true);
            }
        }
        List<TableRow> locked = h2Lock(c, max, true, List.of());
        List<TableRow> leased = new ArrayList<>();
        try (PreparedStatement update = c.prepareStatement(sql.leaseOne());
                PreparedStatement read = c.prepareStatement(sql.readOne())) {
            for (TableRow r : locked) {
                int next = bindLease(update, mark);
                update.setObject(next, r.key());
                update.executeUpdate();
                read.setObject(1, r.key());
                leased.addAll(read(read, true, false));
            }
        }
        return leased;
    }

    /** Binds the lease's seconds and the taking's mark; returns the next parameter's index. */
    private int bindLease(PreparedStatement ps, UUID mark) throws SQLException {
        ps.setInt(1, table.definition().leaseSeconds());
        if (table.column(ColumnRole.MARK) == null) {
            return 2;
        }
        bindMark(ps, 2, mark);
        return 3;
    }

    /**
     * H2: reads candidates in taking order without locking and locks them one by one by key ({@code FOR UPDATE SKIP
     * LOCKED} on one row), the conditions checked again under the lock, until {@code max} are locked; the candidates
     * leave out the {@code held} keys.
     */
    private List<TableRow> h2Lock(Connection c, int max, boolean leased, List<Object> held) throws SQLException {
        List<TableRow> locked = new ArrayList<>();
        int page = max + H2_EXTRA_CANDIDATES;
        try (PreparedStatement candidates = c.prepareStatement(sql.candidates(TableSql.heldParameters(held.size())));
                PreparedStatement lock = c.prepareStatement(sql.lockOne())) {
            int next = bindHeld(candidates, 1, held);
            for (int p = 0; p < H2_PAGES && locked.size() < max; p++) {
                candidates.setInt(next, p * page);
                candidates.setInt(next + 1, page);
                List<Object> keys = new ArrayList<>();
                try (ResultSet rs = candidates.executeQuery()) {
                    while (rs.next()) {
                        keys.add(rs.getObject(1));
                    }
                }
                for (Object k : keys) {
                    lock.setObject(1, k);
                    locked.addAll(read(lock, leased, false));
                    if (locked.size() >= max) {
                        break;
                    }
                }
                if (keys.size() < page) {
                    break;
                }
            }
        }
        return locked;
    }

    private List<TableRow> read(PreparedStatement ps, boolean leased, boolean sort) throws SQLException {
        return TableRows.read(ps, table, leased, sort);
    }

    @Override
    protected TableSql shared() {
        return sql.shared();
    }
}
