package org.ssbjca.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.Postgres;

/** The walking skeleton on PostgreSQL (the embedded test server), through the same backend interface. */
class EchoPostgresIT extends EchoScenario {

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.forPostgres(Postgres.get()));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(EchoScenario.class, EchoPostgresIT.class);
    }
}
