package org.ssbjca.fakes;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.Xid;

/** Global transaction ids for tests that drive XA resources by hand; each one new is unique. */
public final class TestXid implements Xid {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private final byte[] gtrid;

    private TestXid(String gtrid) {
        this.gtrid = gtrid.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @param prefix what the id starts with, to tell tests apart in a database's list of prepared transactions
     * @return an id no other test run uses
     */
    public static Xid next(String prefix) {
        return new TestXid(prefix + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID());
    }

    @Override
    public int getFormatId() {
        return 4712;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return new byte[] {1};
    }
}
