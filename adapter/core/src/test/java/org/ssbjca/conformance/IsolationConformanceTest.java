package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.PendingGroup;

/**
 * SQL Server with READ_COMMITTED_SNAPSHOT and ALLOW_SNAPSHOT_ISOLATION ON (Azure SQL Database's defaults), on a
 * session a bean put at SERIALIZABLE: the reads that skip locked rows (READPAST) still run, and the session's level
 * is the bean's again after each of the adapter's batches. The database options are set back OFF at the end.
 * SQL Server only (the portable backends have no such options); skipped where no SQL Server runs.
 */
class IsolationConformanceTest {

    @BackendTest
    void readPastRunsWithReadCommittedSnapshotOnAndASerializableSessionKeepsItsLevel(Db db) throws Exception {
        assumeTrue(db.broker().kind() == BackendKind.SQLSERVER, "SQL Server's isolation options");
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        Conversation b = begin(db, o);
        db.run(s -> {
            s.send(a.handle(), o.request, bytes("first"));
            s.send(b.handle(), o.request, bytes("prioritised"));
        });
        List<PendingGroup> groups = LedgerConformanceTest.ledger(db, l -> l.pendingGroups(o.targetQueue, 10));
        db.run(s -> s.setPriority(groups.get(1).groupId(), 9));
        options(db, "ON");
        try (Db.Tx tx = db.begin()) {
            try (Statement st = tx.connection().createStatement()) {
                st.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;");
            }
            List<BrokerMessage> m = tx.session().receive(ReceiveRequest.from(o.targetQueue), true, true).messages();
            assertEquals("prioritised", m.get(0).bodyAsText());
            db.broker().ledger(tx.connection()).priorities(o.targetQueue);
            assertEquals(4, isolation(tx.connection()), "the session is at SERIALIZABLE again (4)");
            tx.rollback();
        } finally {
            options(db, "OFF");
        }
    }

    private static void options(Db db, String onOff) throws Exception {
        try (Connection c = db.fixture().connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            st.execute("ALTER DATABASE CURRENT SET ALLOW_SNAPSHOT_ISOLATION " + onOff + ";");
            st.execute("ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT " + onOff + " WITH ROLLBACK IMMEDIATE;");
        }
    }

    private static int isolation(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT transaction_isolation_level FROM sys.dm_exec_sessions WHERE session_id = @@SPID;")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
