package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableBroker;

/** An in-memory H2 database in this JVM, with the portable schema. */
final class H2Fixture implements BackendFixture {

    private final ConnectionSource source;
    private final PortableBroker broker;

    H2Fixture() {
        source = new ConnectionSource(new DatabaseConfig("jdbc:h2:mem:conformance;DB_CLOSE_DELAY=-1", "sa", ""));
        broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), Conformance.PORTABLE_OPTIONS);
        try (Connection c = source.open()) {
            broker.installSchema(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot install the portable schema on H2", e);
        }
    }

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public Broker broker() {
        return broker;
    }

    @Override
    public Connection connect() throws SQLException {
        return source.open();
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCK_TIMEOUT " + millis);
        }
    }
}
