package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import org.ssbjca.backend.Broker;

/**
 * One database the conformance suite runs against. A fixture is started once per test JVM and shared by every test;
 * tests isolate themselves by giving their queues and services unique names.
 */
public interface BackendFixture extends AutoCloseable {

    /** @return a short name for test reports: H2, PostgreSQL, SQL Server */
    String name();

    /**
     * @return null when the backend is available, else one line saying why its tests are skipped
     */
    default String unavailableReason() {
        return null;
    }

    /** @return the broker for this database (the adapter's schema is installed) */
    Broker broker();

    /**
     * @return a new plain connection, auto-commit off; the caller closes it
     * @throws SQLException if the database refuses
     */
    Connection connect() throws SQLException;

    /**
     * @return a new XA connection; the caller closes it
     * @throws SQLException if the database refuses
     */
    javax.sql.XAConnection connectXa() throws SQLException;

    /**
     * Makes a session of this connection give up rather than wait for a row lock held by another transaction, so
     * that a test can prove that readers never block each other.
     *
     * @param c the connection
     * @param millis how long a lock wait may last before it fails
     * @throws SQLException on error
     */
    void setLockTimeout(Connection c, long millis) throws SQLException;

    /**
     * The plan shapes a test can force on a session, to prove that a statement means the same whatever plan the
     * database picks (the plan changes with the tables' statistics, which tests cannot pin on every server).
     *
     * @return by name, the session settings that force each shape; the first is the database's own choice
     */
    default java.util.Map<String, java.util.List<String>> planShapes() {
        return java.util.Map.of("as planned", java.util.List.of());
    }

    /**
     * Prepares to end the database session of a connection from another connection, as a server that shuts down
     * ends it (the session id is read now, while the connection is idle).
     *
     * @param victim the connection whose session is to end
     * @return what ends it when run; null when this backend cannot end another session (H2 in process)
     * @throws SQLException on error
     */
    default SessionEnder sessionEnder(Connection victim) throws SQLException {
        return null;
    }

    /**
     * @param c a connection
     * @param query a query of one row and one integer column
     * @return its value
     * @throws SQLException on error
     */
    static int queryInt(Connection c, String query) throws SQLException {
        try (java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Ends one database session. */
    @FunctionalInterface
    interface SessionEnder {
        /** @throws SQLException if the database refuses */
        void endSession() throws SQLException;
    }

    @Override
    default void close() {
        broker().close();
    }
}
