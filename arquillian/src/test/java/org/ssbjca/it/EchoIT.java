package org.ssbjca.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;

/** The walking skeleton on an in-memory H2 database in the server. */
class EchoIT extends EchoScenario {

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("echo-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(EchoScenario.class, EchoIT.class);
    }
}
