package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.xa.PGXADataSource;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.fakes.RecordingXAResource;
import org.ssbjca.fakes.TestXid;
import org.ssbjca.tiers.TestTier;

/**
 * A PostgreSQL server that refuses {@code PREPARE TRANSACTION} ({@code max_prepared_transactions = 0}, the packages'
 * default) has rolled the branch back: PostgreSQL turns a failed PREPARE into a ROLLBACK. The transaction manager must
 * hear that ({@code XA_RBROLLBACK}), not a resource-manager error after which it asks for a rollback the server cannot
 * find and records a heuristic outcome.
 */
class RefusedPrepareTest {

    private static EmbeddedPostgres stock;
    private static PortableBroker broker;

    @BeforeAll
    static void startAStockServer() throws Exception {
        TestTier.assumePostgres();
        stock = EmbeddedPostgres.builder().start();
        DatabaseConfig db = new DatabaseConfig(stock.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        broker = new PortableBroker(new ConnectionSource(db), BackgroundRunner.daemonThreads(),
                PortableOptions.defaults());
        try (Connection c = stock.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE refused_prepare (id int)");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
        if (stock != null) {
            stock.close();
        }
    }

    @Test
    void aRefusedPrepareIsReportedAsRolledBackAndLeavesNothing() throws Exception {
        PGXADataSource ds = new PGXADataSource();
        ds.setUrl(stock.getJdbcUrl("postgres", "postgres"));
        XAConnection xa = ds.getXAConnection();
        try {
            XAResource resource = broker.xaResource(xa.getXAResource());
            Xid xid = TestXid.next("refused");
            resource.start(xid, XAResource.TMNOFLAGS);
            try (Statement s = xa.getConnection().createStatement()) {
                s.executeUpdate("INSERT INTO refused_prepare VALUES (1)");
            }
            resource.end(xid, XAResource.TMSUCCESS);
            XAException refused = assertThrows(XAException.class, () -> resource.prepare(xid));
            assertEquals(XAException.XA_RBROLLBACK, refused.errorCode,
                    "the error code of a refused prepare (" + refused.getCause() + ")");
            try (Statement s = xa.getConnection().createStatement();
                    var rows = s.executeQuery("SELECT count(*) FROM refused_prepare")) {
                rows.next();
                assertEquals(0, rows.getInt(1), "rows the refused branch left");
            }
        } finally {
            xa.close();
        }
    }

    @Test
    void aPrepareCutShortByALostConnectionKeepsTheDriversCode() {
        RecordingXAResource driver = new RecordingXAResource();
        driver.failPrepare = new XAException("Error preparing transaction");
        driver.failPrepare.errorCode = XAException.XAER_RMFAIL;
        driver.failPrepare.initCause(new SQLException("An I/O error occurred while sending to the backend", "08006"));
        XAException out = assertThrows(XAException.class,
                () -> broker.xaResource(driver).prepare(RecordingXAResource.XID));
        assertEquals(XAException.XAER_RMFAIL, out.errorCode, "the outcome is unknown: recovery finds out");
    }
}
