package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.TestXid;

/**
 * The verbs' statements run on the driver's connection under pgjdbc's XA handle, inside the branch the handle's XA
 * resource started; the handle still guards the transaction.
 */
class StatementsOnTest {

    @Test
    void underPgjdbcsXaHandleTheStatementsRunOnTheDriversConnectionInTheBranch() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("statements_on");
        XAConnection xa = new ConnectionSource(db).openXa();
        try {
            Connection handle = xa.getConnection();
            assertTrue(Proxy.isProxyClass(handle.getClass()), "pgjdbc's XA handle is a proxy");
            Connection under = PortableSession.statementsOn(handle);
            assertFalse(Proxy.isProxyClass(under.getClass()), "the driver's connection: " + under.getClass());
            try (Statement s = handle.createStatement()) {
                s.execute("CREATE TABLE t (id INT)");
            }

            XAResource resource = xa.getXAResource();
            Xid xid = TestXid.next("statements-on");
            resource.start(xid, XAResource.TMNOFLAGS);
            try (Statement s = under.createStatement()) {
                s.execute("INSERT INTO t VALUES (1)");
            }
            assertThrows(SQLException.class, handle::commit, "the handle still refuses a commit inside the branch");
            resource.end(xid, XAResource.TMFAIL);
            resource.rollback(xid);
            assertEquals(0, count(handle), "the insert was part of the branch: rolled back with it");

            xid = TestXid.next("statements-on");
            resource.start(xid, XAResource.TMNOFLAGS);
            try (Statement s = under.createStatement()) {
                s.execute("INSERT INTO t VALUES (2)");
            }
            resource.end(xid, XAResource.TMSUCCESS);
            resource.commit(xid, true);
            assertEquals(1, count(handle));
        } finally {
            xa.close();
        }
    }

    @Test
    void aConnectionWithNothingUnderItIsUsedAsItIs() throws Exception {
        try (Connection h2 = java.sql.DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID())) {
            assertSame(h2, PortableSession.statementsOn(h2));
        }
    }

    private static long count(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
