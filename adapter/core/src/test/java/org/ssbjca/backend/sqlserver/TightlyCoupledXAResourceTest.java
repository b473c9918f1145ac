package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerXAResource;
import java.util.List;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.fakes.RecordingXAResource;
import org.ssbjca.support.ConnectionLossXAResource;

class TightlyCoupledXAResourceTest {

    /** The documented value of SSTRANSTIGHTLYCPLD. */
    private static final int TIGHTLY_COUPLED = 0x8000;

    private static final Xid XID = RecordingXAResource.XID;

    @Test
    void theDriverConstantIsTheDocumentedOne() {
        assertEquals(TIGHTLY_COUPLED, SQLServerXAResource.SSTRANSTIGHTLYCPLD);
    }

    @Test
    void everyStartIsTightlyCoupledAndNoOtherFlagIsLost() throws Exception {
        RecordingXAResource driver = new RecordingXAResource();
        XAResource xa = new TightlyCoupledXAResource(driver);
        xa.start(XID, XAResource.TMNOFLAGS);
        xa.start(XID, XAResource.TMJOIN);
        xa.start(XID, XAResource.TMRESUME);
        assertEquals(List.of("start " + TIGHTLY_COUPLED, "start " + (XAResource.TMJOIN | TIGHTLY_COUPLED),
                "start " + (XAResource.TMRESUME | TIGHTLY_COUPLED)), driver.calls);
    }

    @Test
    void everythingElseIsDelegatedUnchanged() throws Exception {
        RecordingXAResource driver = new RecordingXAResource();
        driver.prepareVote = XAResource.XA_RDONLY;
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
        RecordingXAResource driver = new RecordingXAResource();
        RecordingXAResource other = new RecordingXAResource();
        driver.sameAs = other;
        XAResource xa = new TightlyCoupledXAResource(driver);
        assertTrue(xa.isSameRM(new TightlyCoupledXAResource(other)));
        assertTrue(xa.isSameRM(other));
        assertFalse(xa.isSameRM(new TightlyCoupledXAResource(new RecordingXAResource())));
    }

    @Test
    void theBrokerWrapsOnce() {
        SqlServerBroker broker = new SqlServerBroker(new ConnectionSource(
                new DatabaseConfig("jdbc:sqlserver://localhost;databaseName=x", "sa", "secret")),
                BackgroundRunner.daemonThreads());
        RecordingXAResource driver = new RecordingXAResource();
        XAResource wrapped = broker.xaResource(driver);
        XAResource tight = ((ConnectionLossXAResource) wrapped).delegate();
        assertSame(driver, ((TightlyCoupledXAResource) tight).delegate());
        assertSame(wrapped, broker.xaResource(wrapped));
    }
}
