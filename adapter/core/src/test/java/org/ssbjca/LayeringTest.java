package org.ssbjca;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The adapter's packages and the direction they may use each other in (issue 11), as {@code docs/architecture.md}
 * draws them, checked over the compiled main classes: each layer uses only layers below it, and no two packages use
 * each other in a circle.
 */
class LayeringTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.ssbjca");

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("api").definedBy("org.ssbjca.api..")
                .layer("support").definedBy("org.ssbjca.support..")
                .layer("backend").definedBy("org.ssbjca.backend")
                .layer("backend tables").definedBy("org.ssbjca.backend.table..")
                .layer("backend implementations").definedBy("org.ssbjca.backend.portable..",
                        "org.ssbjca.backend.sqlserver..")
                .layer("brokers").definedBy("org.ssbjca.brokers..")
                .layer("inbound").definedBy("org.ssbjca.inbound")
                .layer("table inbound").definedBy("org.ssbjca.inbound.table..")
                .layer("outbound").definedBy("org.ssbjca.outbound..")
                .layer("management").definedBy("org.ssbjca.management..")
                .layer("transaction manager integration").definedBy("org.ssbjca.adapter.narayana..")
                .layer("adapter").definedBy("org.ssbjca.adapter")

                .whereLayer("adapter").mayNotBeAccessedByAnyLayer()
                .whereLayer("transaction manager integration").mayOnlyBeAccessedByLayers("adapter")
                .whereLayer("management").mayOnlyBeAccessedByLayers("adapter")
                .whereLayer("outbound").mayNotBeAccessedByAnyLayer()
                .whereLayer("table inbound").mayOnlyBeAccessedByLayers("management", "adapter")
                .whereLayer("inbound").mayOnlyBeAccessedByLayers("table inbound", "management", "adapter")
                .whereLayer("brokers").mayOnlyBeAccessedByLayers("inbound", "table inbound", "outbound", "management",
                        "adapter")
                .whereLayer("backend implementations").mayOnlyBeAccessedByLayers("brokers", "adapter")
                .whereLayer("backend").mayOnlyBeAccessedByLayers("backend implementations", "brokers", "inbound",
                        "table inbound", "outbound", "management", "adapter")
                .whereLayer("backend tables").mayOnlyBeAccessedByLayers("backend", "backend implementations",
                        "brokers", "inbound", "table inbound", "management", "adapter")
                .whereLayer("support").mayOnlyBeAccessedByLayers("backend", "backend implementations", "brokers",
                        "inbound", "table inbound", "outbound", "management", "transaction manager integration",
                        "adapter")
                .check(MAIN);
    }

    @Test
    void theApiUsesNothingOfTheAdapter() {
        classes().that().resideInAPackage("org.ssbjca.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.ssbjca.api..", "java..", "javax..",
                        "org.w3c..",
                        "org.xml..", "jakarta..")
                .check(MAIN);
    }

    /** The table-queue backend stands alone: it needs only the api, whatever the backends around it do. */
    @Test
    void theTableBackendUsesOnlyTheApi() {
        classes().that().resideInAPackage("org.ssbjca.backend.table..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("org.ssbjca.backend.table..", "org.ssbjca.api..", "java..")
                .check(MAIN);
    }

    @Test
    void noPackagesUseEachOtherInACircle() {
        slices().matching("org.ssbjca.(**)").should().beFreeOfCycles().check(MAIN);
    }
}
