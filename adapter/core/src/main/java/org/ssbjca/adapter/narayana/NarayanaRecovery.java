package org.ssbjca.adapter.narayana;

import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import java.util.Map;
import java.util.function.Supplier;
import javax.transaction.xa.XAResource;
import org.ssbjca.support.AdapterLog;

/**
 * Recovery of the readers' branches by WildFly's transaction manager (Narayana), which needs more than the
 * connector contract gives.
 *
 * <p>The transaction manager logs each two-phase transaction with one record per branch. When it must finish a
 * logged transaction after a crash, it asks the recovery resources which of them still holds each branch prepared;
 * for a branch none of them lists (the database already committed it before the crash), it drops the record only
 * if the branch carries a name ({@code org.jboss.tm.XAResourceWrapper#getJndiName}) and a recovery resource with that
 * name answered the scan, i.e. the database that would hold the branch was reached and does not hold it. Outbound
 * branches get the name of their connection factory from IronJacamar; a reader's branch is enlisted by the EJB
 * container, and IronJacamar's inflow recovery scans {@code ResourceAdapter.getXAResources} without a name, so a
 * completed reader branch was never recognised: its transaction stayed in the object store and every recovery scan
 * logged ARJUNA016037/016038 again.
 *
 * <p>So, when the server has Narayana, the adapter names both sides after the database (the name begins with
 * {@value #PREFIX} and shows the database without its password): the resource each reader enlists
 * ({@link #named}), and the recovery resource of every database in use, registered with the transaction manager's XA
 * recovery module for as long as the adapter runs. A database that cannot be reached
 * during a scan does not answer it, so its branches are kept for a later scan, never assumed complete.
 *
 * <p>Only this package refers to Narayana and the JBoss transaction SPI; {@link #start} is called only when both are
 * visible to the adapter, which is in WildFly (the RAR's manifest asks WildFly for them, optionally), whose
 * transactions subsystem runs the recovery manager: asked for its XA recovery module where none runs, Narayana would
 * start one. The unit tests therefore run without these classes.
 */
public final class NarayanaRecovery implements XAResourceRecoveryHelper, AutoCloseable {

    /** The start of every name the adapter gives its branches. */
    public static final String PREFIX = "ssb-jca ";

    private static final AdapterLog LOG = AdapterLog.of(NarayanaRecovery.class);

    private final XARecoveryModule module;
    private final Supplier<Map<String, XAResource>> databases;

    private NarayanaRecovery(XARecoveryModule module, Supplier<Map<String, XAResource>> databases) {
        this.module = module;
        this.databases = databases;
    }

    /**
     * Registers the recovery of the databases in use with the running transaction manager.
     *
     * @param databases the recovery resource of each database in use, by name, asked at each scan
     * @return the registration, or null when the transaction manager has no XA recovery module running
     */
    public static NarayanaRecovery start(Supplier<Map<String, XAResource>> databases) {
        XARecoveryModule module = XARecoveryModule.getRegisteredXARecoveryModule();
        if (module == null) {
            LOG.noRecoveryModule();
            return null;
        }
        NarayanaRecovery recovery = new NarayanaRecovery(module, databases);
        module.addXAResourceRecoveryHelper(recovery);
        LOG.branchesNamed(PREFIX);
        return recovery;
    }

    /**
     * Returns the name of its branches and of its recovery resource.
     *
     * @param database a database, as shown in logs (without its password)
     */
    public static String name(Object database) {
        return PREFIX + database;
    }

    /**
     * Returns the resource, carrying the name for the transaction manager.
     *
     * @param name a name from {@link #name}
     * @param resource an XA resource of that database
     */
    public static XAResource named(String name, XAResource resource) {
        return new NamedXAResource(resource, name);
    }

    @Override
    public boolean initialise(String parameter) {
        return true;
    }

    @Override
    public XAResource[] getXAResources() {
        return databases.get().entrySet().stream()
                .map(e -> named(e.getKey(), e.getValue()))
                .toArray(XAResource[]::new);
    }

    /** Removes the registration: the adapter stops. */
    @Override
    public void close() {
        module.removeXAResourceRecoveryHelper(this);
    }
}
