package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerXAResource;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.support.ConnectionLossXAResource;

class TightlyCoupledXAResourceTest {

    /** The documented value of SSTRANSTIGHTLYCPLD. */
    private static final int TIGHTLY_COUPLED = 0x8000;

    private static final Xid XID = new Xid() {
        @Override
        public int getFormatId() {
            return 1;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return new byte[] {1};
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {2};
        }
    };

    /** Records what the transaction manager asked of the driver. */
    private static final class FakeResource implements XAResource {
        final List<String> calls = new ArrayList<>();
        XAResource sameAs;

        @Override
        public void start(Xid xid, int flags) {
            calls.add("start " + flags);
        }

        @Override
        public void end(Xid xid, int flags) {
            calls.add("end " + flags);
        }

        @Override
        public int prepare(Xid xid) {
            calls.add("prepare");
            return XA_RDONLY;
        }

        @Override
        public void commit(Xid xid, boolean onePhase) {
            calls.add("commit " + onePhase);
        }

        @Override
        public void rollback(Xid xid) {
            calls.add("rollback");
        }

        @Override
        public void forget(Xid xid) {
            calls.add("forget");
        }

        @Override
        public Xid[] recover(int flag) {
            calls.add("recover " + flag);
            return new Xid[] {XID};
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == sameAs;
        }

        @Override
        public int getTransactionTimeout() {
            return 17;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            calls.add("timeout " + seconds);
            return true;
        }
    }

    @Test
    void theDriverConstantIsTheDocumentedOne() {
        assertEquals(TIGHTLY_COUPLED, SQLServerXAResource.SSTRANSTIGHTLYCPLD);
    }

    @Test
    void everyStartIsTightlyCoupledAndNoOtherFlagIsLost() throws Exception {
        FakeResource driver = new FakeResource();
        XAResource xa = new TightlyCoupledXAResource(driver);
        xa.start(XID, XAResource.TMNOFLAGS);
        xa.start(XID, XAResource.TMJOIN);
        xa.start(XID, XAResource.TMRESUME);
        assertEquals(List.of("start " + TIGHTLY_COUPLED, "start " + (XAResource.TMJOIN | TIGHTLY_COUPLED),
                "start " + (XAResource.TMRESUME | TIGHTLY_COUPLED)), driver.calls);
    }

    @Test
    void everythingElseIsDelegatedUnchanged() throws Exception {
        FakeResource driver = new FakeResource();
        XAResource xa = new TightlyCoupledXAResource(driver);
        xa.end(XID, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_RDONLY, xa.prepare(XID));
        xa.commit(XID, true);
        xa.rollback(XID);
        xa.forget(XID);
        assertSame(XID, xa.recover(XAResource.TMSTARTRSCAN)[0]);
        assertTrue(xa.setTransactionTimeout(30));
        assertEquals(17, xa.getTransactionTimeout());
        assertEquals(List.of("end " + XAResource.TMSUCCESS, "prepare", "commit true", "rollback", "forget",
                "recover " + XAResource.TMSTARTRSCAN, "timeout 30"), driver.calls);
    }

    @Test
    void isSameRmUnwrapsAPeerWrapper() throws Exception {
        FakeResource driver = new FakeResource();
        FakeResource other = new FakeResource();
        driver.sameAs = other;
        XAResource xa = new TightlyCoupledXAResource(driver);
        assertTrue(xa.isSameRM(new TightlyCoupledXAResource(other)));
        assertTrue(xa.isSameRM(other));
        assertFalse(xa.isSameRM(new TightlyCoupledXAResource(new FakeResource())));
    }

    @Test
    void theBrokerWrapsOnce() {
        SqlServerBroker broker = new SqlServerBroker(new ConnectionSource(
                new DatabaseConfig("jdbc:sqlserver://localhost;databaseName=x", "sa", "secret")),
                BackgroundRunner.daemonThreads());
        FakeResource driver = new FakeResource();
        XAResource wrapped = broker.xaResource(driver);
        XAResource tight = ((ConnectionLossXAResource) wrapped).delegate();
        assertSame(driver, ((TightlyCoupledXAResource) tight).delegate());
        assertSame(wrapped, broker.xaResource(wrapped));
    }
}
