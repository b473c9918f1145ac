package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * docs/guide/outbound-api.md: {@code jdbcConnection()} is the connection the verbs use, for the application's own
 * tables, with commit, rollback and close refused (the transaction is the container's or the broker connection's).
 */
class GuardedConnectionTest {

    @Test
    void statementsRunOnTheVerbsConnectionAndEndingTheTransactionIsRefused() throws Exception {
        try (Connection real = DriverManager.getConnection("jdbc:h2:mem:guarded-" + UUID.randomUUID())) {
            real.setAutoCommit(false);
            Connection guarded = GuardedConnection.of(() -> real);
            try (Statement s = guarded.createStatement()) {
                s.execute("CREATE TABLE app_row (id INT PRIMARY KEY)");
                s.executeUpdate("INSERT INTO app_row VALUES (1)");
            }

            Map<String, Executable> refused = Map.of(
                    "commit", guarded::commit,
                    "rollback", guarded::rollback,
                    "close", guarded::close,
                    "setAutoCommit", () -> guarded.setAutoCommit(true),
                    "setSavepoint", guarded::setSavepoint,
                    "setTransactionIsolation", () -> guarded.setTransactionIsolation(
                            Connection.TRANSACTION_SERIALIZABLE));
            refused.forEach((method, call) -> {
                SQLException e = assertThrows(SQLException.class, call, method);
                assertTrue(e.getMessage().startsWith(method + "() is not allowed"), e.getMessage());
            });

            assertFalse(guarded.isClosed(), "close was refused");
            assertFalse(real.isClosed());
            assertFalse(real.getAutoCommit(), "the transaction is still the owner's");
            real.rollback();
            try (Statement s = real.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM app_row")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "nothing was committed through the guarded connection");
            }
        }
    }
}
