package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real PostgreSQL database in one {@link PlannerState}, on the test JVM's {@link PostgresServer}: a database of its
 * own per state, so that the statistics of one never reach another.
 */
final class PostgresFixture extends PortableFixture {

    private final PlannerState state;

    PostgresFixture(PlannerState state) {
        super(PostgresServer.get().newDatabase(state.databaseName("conformance")));
        this.state = state;
        try (Connection c = connect()) {
            state.apply(broker(), c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot bring PostgreSQL into state " + state, e);
        }
    }

    @Override
    public String name() {
        return state.label();
    }

    /** {@code pg_terminate_backend}: the session ends with {@code FATAL 57P01}, as at a server shutdown. */
    @Override
    public SessionEnder sessionEnder(Connection victim) throws SQLException {
        int pid = BackendFixture.queryInt(victim, "SELECT pg_backend_pid()");
        return () -> {
            try (Connection admin = connect();
                    java.sql.PreparedStatement ps = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
                ps.setInt(1, pid);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        throw new SQLException("session " + pid + " was not terminated");
                    }
                }
                admin.commit();
            }
        };
    }

    /**
     * The planner's choice, then a generic plan made only of nested loops with nothing hashed, sorted or
     * materialized: the shape in which a subquery under a join runs again for every outer row (the shape PostgreSQL
     * chose for the old RECEIVE once the tables had statistics).
     */
    @Override
    public Map<String, List<String>> planShapes() {
        Map<String, List<String>> shapes = new LinkedHashMap<>();
        shapes.put("as planned", List.of());
        shapes.put("generic plan, nested loops, nothing hashed, sorted or materialized", List.of(
                "SET plan_cache_mode = force_generic_plan", "SET enable_hashjoin = off", "SET enable_mergejoin = off",
                "SET enable_material = off", "SET enable_hashagg = off", "SET enable_sort = off"));
        return shapes;
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        set(c, "SET lock_timeout = " + millis);
    }
}
