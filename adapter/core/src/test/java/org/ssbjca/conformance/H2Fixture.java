package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import org.ssbjca.backend.DatabaseConfig;

/** An in-memory H2 database in this JVM, with the portable schema. */
final class H2Fixture extends PortableFixture {

    H2Fixture() {
        super(new DatabaseConfig("jdbc:h2:mem:conformance;DB_CLOSE_DELAY=-1", "sa", ""));
    }

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        set(c, "SET LOCK_TIMEOUT " + millis);
    }
}
