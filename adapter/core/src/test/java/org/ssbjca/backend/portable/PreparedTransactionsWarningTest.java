package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.tiers.TestTier;

/**
 * PostgreSQL as its packages ship it has {@code max_prepared_transactions = 0}: a transaction that enlists the
 * database beside another resource cannot prepare, and the caller sees a heuristic outcome at commit (a new user's
 * trial on Debian's PostgreSQL 15). The adapter says so once, when it readies the schema, and is silent when the
 * setting allows two-phase commit.
 */
class PreparedTransactionsWarningTest {

    @Test
    void aServerWithoutPreparedTransactionsIsNamedAtStart() throws Exception {
        TestTier.assumePostgres();
        try (EmbeddedPostgres stock = EmbeddedPostgres.builder().start()) {
            DatabaseConfig db = new DatabaseConfig(stock.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
            List<String> warned = prepare(db);
            assertEquals(1, warned.size(), "one warning: " + warned);
            assertTrue(warned.get(0).contains("max_prepared_transactions = 0"), warned.get(0));
        }
    }

    @Test
    void aServerThatPreparesIsNotWarnedAbout() throws Exception {
        PostgresServer.get().assumePreparedTransactions();
        assertEquals(List.of(), prepare(PostgresServer.get().newDatabase("prepared_transactions_on")));
    }

    private static List<String> prepare(DatabaseConfig db) throws Exception {
        ConnectionSource source = new ConnectionSource(db);
        try (LogRecords log = LogRecords.of(PortableBroker.class);
                PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                        PortableOptions.defaults());
                Connection c = source.open()) {
            broker.prepareSchema(c, true);
            return log.messages(Level.WARNING, "SSBJCA0220");
        }
    }
}
