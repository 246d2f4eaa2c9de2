from pixelmem.cli import main

raise SystemExit(main())
