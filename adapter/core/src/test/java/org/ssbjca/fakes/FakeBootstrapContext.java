package org.ssbjca.fakes;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Timer;

/** A bootstrap context with a real-thread work manager and a fake transaction registry. */
public final class FakeBootstrapContext implements BootstrapContext {

    private final FakeWorkManager workManager = new FakeWorkManager();
    private final FakeTransactions transactions = new FakeTransactions();

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    /** @return the work manager, to count its threads */
    public FakeWorkManager fakeWorkManager() {
        return workManager;
    }

    /** @return the transaction registry the fake endpoints drive */
    public FakeTransactions transactions() {
        return transactions;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> type) {
        return false;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return transactions;
    }
}
