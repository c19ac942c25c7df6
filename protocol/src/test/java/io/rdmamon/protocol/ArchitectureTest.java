package io.rdmamon.protocol;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;
import io.rdmamon.protocol.testing.ArchitectureRules.Module;

/**
 * The protocol's packages import each other one way only, and the protocol uses no other rdmamon module
 * (README.md "Source layout").
 */
@AnalyzeClasses(packages = "io.rdmamon.protocol", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesImportOneWay = ArchitectureRules.packagesFreeOfCycles(Module.PROTOCOL);

    @ArchTest
    static final ArchRule usesOnlyItsModules = ArchitectureRules.usesOnlyItsModules(Module.PROTOCOL);

    /** The tests' classes, which the rules above leave out, are imported apart. */
    @ArchTest
    static void testsUseOnlyItsModules(JavaClasses mainClasses) {
        ArchitectureRules.checkTestsUseOnlyItsModules(Module.PROTOCOL);
    }
}
