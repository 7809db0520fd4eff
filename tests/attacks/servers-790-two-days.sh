# issue 20: 790 etcd servers and two days (an 8 kB link): never paints
machine add s0
s0$ etcd
machine add s1
s1$ etcd
machine add s2
s2$ etcd
machine add s3
s3$ etcd
machine add s4
s4$ etcd
machine add s5
s5$ etcd
machine add s6
s6$ etcd
machine add s7
s7$ etcd
machine add s8
s8$ etcd
machine add s9
s9$ etcd
machine add s10
s10$ etcd
machine add s11
s11$ etcd
machine add s12
s12$ etcd
machine add s13
s13$ etcd
machine add s14
s14$ etcd
machine add s15
s15$ etcd
machine add s16
s16$ etcd
machine add s17
s17$ etcd
machine add s18
s18$ etcd
machine add s19
s19$ etcd
machine add s20
s20$ etcd
machine add s21
s21$ etcd
machine add s22
s22$ etcd
machine add s23
s23$ etcd
machine add s24
s24$ etcd
machine add s25
s25$ etcd
machine add s26
s26$ etcd
machine add s27
s27$ etcd
machine add s28
s28$ etcd
machine add s29
s29$ etcd
machine add s30
s30$ etcd
machine add s31
s31$ etcd
machine add s32
s32$ etcd
machine add s33
s33$ etcd
machine add s34
s34$ etcd
machine add s35
s35$ etcd
machine add s36
s36$ etcd
machine add s37
s37$ etcd
machine add s38
s38$ etcd
machine add s39
s39$ etcd
machine add s40
s40$ etcd
machine add s41
s41$ etcd
machine add s42
s42$ etcd
machine add s43
s43$ etcd
machine add s44
s44$ etcd
machine add s45
s45$ etcd
machine add s46
s46$ etcd
machine add s47
s47$ etcd
machine add s48
s48$ etcd
machine add s49
s49$ etcd
machine add s50
s50$ etcd
machine add s51
s51$ etcd
machine add s52
s52$ etcd
machine add s53
s53$ etcd
machine add s54
s54$ etcd
machine add s55
s55$ etcd
machine add s56
s56$ etcd
machine add s57
s57$ etcd
machine add s58
s58$ etcd
machine add s59
s59$ etcd
machine add s60
s60$ etcd
machine add s61
s61$ etcd
machine add s62
s62$ etcd
machine add s63
s63$ etcd
machine add s64
s64$ etcd
machine add s65
s65$ etcd
machine add s66
s66$ etcd
machine add s67
s67$ etcd
machine add s68
s68$ etcd
machine add s69
s69$ etcd
machine add s70
s70$ etcd
machine add s71
s71$ etcd
machine add s72
s72$ etcd
machine add s73
s73$ etcd
machine add s74
s74$ etcd
machine add s75
s75$ etcd
machine add s76
s76$ etcd
machine add s77
s77$ etcd
machine add s78
s78$ etcd
machine add s79
s79$ etcd
machine add s80
s80$ etcd
machine add s81
s81$ etcd
machine add s82
s82$ etcd
machine add s83
s83$ etcd
machine add s84
s84$ etcd
machine add s85
s85$ etcd
machine add s86
s86$ etcd
machine add s87
s87$ etcd
machine add s88
s88$ etcd
machine add s89
s89$ etcd
machine add s90
s90$ etcd
machine add s91
s91$ etcd
machine add s92
s92$ etcd
machine add s93
s93$ etcd
machine add s94
s94$ etcd
machine add s95
s95$ etcd
machine add s96
s96$ etcd
machine add s97
s97$ etcd
machine add s98
s98$ etcd
machine add s99
s99$ etcd
machine add s100
s100$ etcd
machine add s101
s101$ etcd
machine add s102
s102$ etcd
machine add s103
s103$ etcd
machine add s104
s104$ etcd
machine add s105
s105$ etcd
machine add s106
s106$ etcd
machine add s107
s107$ etcd
machine add s108
s108$ etcd
machine add s109
s109$ etcd
machine add s110
s110$ etcd
machine add s111
s111$ etcd
machine add s112
s112$ etcd
machine add s113
s113$ etcd
machine add s114
s114$ etcd
machine add s115
s115$ etcd
machine add s116
s116$ etcd
machine add s117
s117$ etcd
machine add s118
s118$ etcd
machine add s119
s119$ etcd
machine add s120
s120$ etcd
machine add s121
s121$ etcd
machine add s122
s122$ etcd
machine add s123
s123$ etcd
machine add s124
s124$ etcd
machine add s125
s125$ etcd
machine add s126
s126$ etcd
machine add s127
s127$ etcd
machine add s128
s128$ etcd
machine add s129
s129$ etcd
machine add s130
s130$ etcd
machine add s131
s131$ etcd
machine add s132
s132$ etcd
machine add s133
s133$ etcd
machine add s134
s134$ etcd
machine add s135
s135$ etcd
machine add s136
s136$ etcd
machine add s137
s137$ etcd
machine add s138
s138$ etcd
machine add s139
s139$ etcd
machine add s140
s140$ etcd
machine add s141
s141$ etcd
machine add s142
s142$ etcd
machine add s143
s143$ etcd
machine add s144
s144$ etcd
machine add s145
s145$ etcd
machine add s146
s146$ etcd
machine add s147
s147$ etcd
machine add s148
s148$ etcd
machine add s149
s149$ etcd
machine add s150
s150$ etcd
machine add s151
s151$ etcd
machine add s152
s152$ etcd
machine add s153
s153$ etcd
machine add s154
s154$ etcd
machine add s155
s155$ etcd
machine add s156
s156$ etcd
machine add s157
s157$ etcd
machine add s158
s158$ etcd
machine add s159
s159$ etcd
machine add s160
s160$ etcd
machine add s161
s161$ etcd
machine add s162
s162$ etcd
machine add s163
s163$ etcd
machine add s164
s164$ etcd
machine add s165
s165$ etcd
machine add s166
s166$ etcd
machine add s167
s167$ etcd
machine add s168
s168$ etcd
machine add s169
s169$ etcd
machine add s170
s170$ etcd
machine add s171
s171$ etcd
machine add s172
s172$ etcd
machine add s173
s173$ etcd
machine add s174
s174$ etcd
machine add s175
s175$ etcd
machine add s176
s176$ etcd
machine add s177
s177$ etcd
machine add s178
s178$ etcd
machine add s179
s179$ etcd
machine add s180
s180$ etcd
machine add s181
s181$ etcd
machine add s182
s182$ etcd
machine add s183
s183$ etcd
machine add s184
s184$ etcd
machine add s185
s185$ etcd
machine add s186
s186$ etcd
machine add s187
s187$ etcd
machine add s188
s188$ etcd
machine add s189
s189$ etcd
machine add s190
s190$ etcd
machine add s191
s191$ etcd
machine add s192
s192$ etcd
machine add s193
s193$ etcd
machine add s194
s194$ etcd
machine add s195
s195$ etcd
machine add s196
s196$ etcd
machine add s197
s197$ etcd
machine add s198
s198$ etcd
machine add s199
s199$ etcd
machine add s200
s200$ etcd
machine add s201
s201$ etcd
machine add s202
s202$ etcd
machine add s203
s203$ etcd
machine add s204
s204$ etcd
machine add s205
s205$ etcd
machine add s206
s206$ etcd
machine add s207
s207$ etcd
machine add s208
s208$ etcd
machine add s209
s209$ etcd
machine add s210
s210$ etcd
machine add s211
s211$ etcd
machine add s212
s212$ etcd
machine add s213
s213$ etcd
machine add s214
s214$ etcd
machine add s215
s215$ etcd
machine add s216
s216$ etcd
machine add s217
s217$ etcd
machine add s218
s218$ etcd
machine add s219
s219$ etcd
machine add s220
s220$ etcd
machine add s221
s221$ etcd
machine add s222
s222$ etcd
machine add s223
s223$ etcd
machine add s224
s224$ etcd
machine add s225
s225$ etcd
machine add s226
s226$ etcd
machine add s227
s227$ etcd
machine add s228
s228$ etcd
machine add s229
s229$ etcd
machine add s230
s230$ etcd
machine add s231
s231$ etcd
machine add s232
s232$ etcd
machine add s233
s233$ etcd
machine add s234
s234$ etcd
machine add s235
s235$ etcd
machine add s236
s236$ etcd
machine add s237
s237$ etcd
machine add s238
s238$ etcd
machine add s239
s239$ etcd
machine add s240
s240$ etcd
machine add s241
s241$ etcd
machine add s242
s242$ etcd
machine add s243
s243$ etcd
machine add s244
s244$ etcd
machine add s245
s245$ etcd
machine add s246
s246$ etcd
machine add s247
s247$ etcd
machine add s248
s248$ etcd
machine add s249
s249$ etcd
machine add s250
s250$ etcd
machine add s251
s251$ etcd
machine add s252
s252$ etcd
machine add s253
s253$ etcd
machine add s254
s254$ etcd
machine add s255
s255$ etcd
machine add s256
s256$ etcd
machine add s257
s257$ etcd
machine add s258
s258$ etcd
machine add s259
s259$ etcd
machine add s260
s260$ etcd
machine add s261
s261$ etcd
machine add s262
s262$ etcd
machine add s263
s263$ etcd
machine add s264
s264$ etcd
machine add s265
s265$ etcd
machine add s266
s266$ etcd
machine add s267
s267$ etcd
machine add s268
s268$ etcd
machine add s269
s269$ etcd
machine add s270
s270$ etcd
machine add s271
s271$ etcd
machine add s272
s272$ etcd
machine add s273
s273$ etcd
machine add s274
s274$ etcd
machine add s275
s275$ etcd
machine add s276
s276$ etcd
machine add s277
s277$ etcd
machine add s278
s278$ etcd
machine add s279
s279$ etcd
machine add s280
s280$ etcd
machine add s281
s281$ etcd
machine add s282
s282$ etcd
machine add s283
s283$ etcd
machine add s284
s284$ etcd
machine add s285
s285$ etcd
machine add s286
s286$ etcd
machine add s287
s287$ etcd
machine add s288
s288$ etcd
machine add s289
s289$ etcd
machine add s290
s290$ etcd
machine add s291
s291$ etcd
machine add s292
s292$ etcd
machine add s293
s293$ etcd
machine add s294
s294$ etcd
machine add s295
s295$ etcd
machine add s296
s296$ etcd
machine add s297
s297$ etcd
machine add s298
s298$ etcd
machine add s299
s299$ etcd
machine add s300
s300$ etcd
machine add s301
s301$ etcd
machine add s302
s302$ etcd
machine add s303
s303$ etcd
machine add s304
s304$ etcd
machine add s305
s305$ etcd
machine add s306
s306$ etcd
machine add s307
s307$ etcd
machine add s308
s308$ etcd
machine add s309
s309$ etcd
machine add s310
s310$ etcd
machine add s311
s311$ etcd
machine add s312
s312$ etcd
machine add s313
s313$ etcd
machine add s314
s314$ etcd
machine add s315
s315$ etcd
machine add s316
s316$ etcd
machine add s317
s317$ etcd
machine add s318
s318$ etcd
machine add s319
s319$ etcd
machine add s320
s320$ etcd
machine add s321
s321$ etcd
machine add s322
s322$ etcd
machine add s323
s323$ etcd
machine add s324
s324$ etcd
machine add s325
s325$ etcd
machine add s326
s326$ etcd
machine add s327
s327$ etcd
machine add s328
s328$ etcd
machine add s329
s329$ etcd
machine add s330
s330$ etcd
machine add s331
s331$ etcd
machine add s332
s332$ etcd
machine add s333
s333$ etcd
machine add s334
s334$ etcd
machine add s335
s335$ etcd
machine add s336
s336$ etcd
machine add s337
s337$ etcd
machine add s338
s338$ etcd
machine add s339
s339$ etcd
machine add s340
s340$ etcd
machine add s341
s341$ etcd
machine add s342
s342$ etcd
machine add s343
s343$ etcd
machine add s344
s344$ etcd
machine add s345
s345$ etcd
machine add s346
s346$ etcd
machine add s347
s347$ etcd
machine add s348
s348$ etcd
machine add s349
s349$ etcd
machine add s350
s350$ etcd
machine add s351
s351$ etcd
machine add s352
s352$ etcd
machine add s353
s353$ etcd
machine add s354
s354$ etcd
machine add s355
s355$ etcd
machine add s356
s356$ etcd
machine add s357
s357$ etcd
machine add s358
s358$ etcd
machine add s359
s359$ etcd
machine add s360
s360$ etcd
machine add s361
s361$ etcd
machine add s362
s362$ etcd
machine add s363
s363$ etcd
machine add s364
s364$ etcd
machine add s365
s365$ etcd
machine add s366
s366$ etcd
machine add s367
s367$ etcd
machine add s368
s368$ etcd
machine add s369
s369$ etcd
machine add s370
s370$ etcd
machine add s371
s371$ etcd
machine add s372
s372$ etcd
machine add s373
s373$ etcd
machine add s374
s374$ etcd
machine add s375
s375$ etcd
machine add s376
s376$ etcd
machine add s377
s377$ etcd
machine add s378
s378$ etcd
machine add s379
s379$ etcd
machine add s380
s380$ etcd
machine add s381
s381$ etcd
machine add s382
s382$ etcd
machine add s383
s383$ etcd
machine add s384
s384$ etcd
machine add s385
s385$ etcd
machine add s386
s386$ etcd
machine add s387
s387$ etcd
machine add s388
s388$ etcd
machine add s389
s389$ etcd
machine add s390
s390$ etcd
machine add s391
s391$ etcd
machine add s392
s392$ etcd
machine add s393
s393$ etcd
machine add s394
s394$ etcd
machine add s395
s395$ etcd
machine add s396
s396$ etcd
machine add s397
s397$ etcd
machine add s398
s398$ etcd
machine add s399
s399$ etcd
machine add s400
s400$ etcd
machine add s401
s401$ etcd
machine add s402
s402$ etcd
machine add s403
s403$ etcd
machine add s404
s404$ etcd
machine add s405
s405$ etcd
machine add s406
s406$ etcd
machine add s407
s407$ etcd
machine add s408
s408$ etcd
machine add s409
s409$ etcd
machine add s410
s410$ etcd
machine add s411
s411$ etcd
machine add s412
s412$ etcd
machine add s413
s413$ etcd
machine add s414
s414$ etcd
machine add s415
s415$ etcd
machine add s416
s416$ etcd
machine add s417
s417$ etcd
machine add s418
s418$ etcd
machine add s419
s419$ etcd
machine add s420
s420$ etcd
machine add s421
s421$ etcd
machine add s422
s422$ etcd
machine add s423
s423$ etcd
machine add s424
s424$ etcd
machine add s425
s425$ etcd
machine add s426
s426$ etcd
machine add s427
s427$ etcd
machine add s428
s428$ etcd
machine add s429
s429$ etcd
machine add s430
s430$ etcd
machine add s431
s431$ etcd
machine add s432
s432$ etcd
machine add s433
s433$ etcd
machine add s434
s434$ etcd
machine add s435
s435$ etcd
machine add s436
s436$ etcd
machine add s437
s437$ etcd
machine add s438
s438$ etcd
machine add s439
s439$ etcd
machine add s440
s440$ etcd
machine add s441
s441$ etcd
machine add s442
s442$ etcd
machine add s443
s443$ etcd
machine add s444
s444$ etcd
machine add s445
s445$ etcd
machine add s446
s446$ etcd
machine add s447
s447$ etcd
machine add s448
s448$ etcd
machine add s449
s449$ etcd
machine add s450
s450$ etcd
machine add s451
s451$ etcd
machine add s452
s452$ etcd
machine add s453
s453$ etcd
machine add s454
s454$ etcd
machine add s455
s455$ etcd
machine add s456
s456$ etcd
machine add s457
s457$ etcd
machine add s458
s458$ etcd
machine add s459
s459$ etcd
machine add s460
s460$ etcd
machine add s461
s461$ etcd
machine add s462
s462$ etcd
machine add s463
s463$ etcd
machine add s464
s464$ etcd
machine add s465
s465$ etcd
machine add s466
s466$ etcd
machine add s467
s467$ etcd
machine add s468
s468$ etcd
machine add s469
s469$ etcd
machine add s470
s470$ etcd
machine add s471
s471$ etcd
machine add s472
s472$ etcd
machine add s473
s473$ etcd
machine add s474
s474$ etcd
machine add s475
s475$ etcd
machine add s476
s476$ etcd
machine add s477
s477$ etcd
machine add s478
s478$ etcd
machine add s479
s479$ etcd
machine add s480
s480$ etcd
machine add s481
s481$ etcd
machine add s482
s482$ etcd
machine add s483
s483$ etcd
machine add s484
s484$ etcd
machine add s485
s485$ etcd
machine add s486
s486$ etcd
machine add s487
s487$ etcd
machine add s488
s488$ etcd
machine add s489
s489$ etcd
machine add s490
s490$ etcd
machine add s491
s491$ etcd
machine add s492
s492$ etcd
machine add s493
s493$ etcd
machine add s494
s494$ etcd
machine add s495
s495$ etcd
machine add s496
s496$ etcd
machine add s497
s497$ etcd
machine add s498
s498$ etcd
machine add s499
s499$ etcd
machine add s500
s500$ etcd
machine add s501
s501$ etcd
machine add s502
s502$ etcd
machine add s503
s503$ etcd
machine add s504
s504$ etcd
machine add s505
s505$ etcd
machine add s506
s506$ etcd
machine add s507
s507$ etcd
machine add s508
s508$ etcd
machine add s509
s509$ etcd
machine add s510
s510$ etcd
machine add s511
s511$ etcd
machine add s512
s512$ etcd
machine add s513
s513$ etcd
machine add s514
s514$ etcd
machine add s515
s515$ etcd
machine add s516
s516$ etcd
machine add s517
s517$ etcd
machine add s518
s518$ etcd
machine add s519
s519$ etcd
machine add s520
s520$ etcd
machine add s521
s521$ etcd
machine add s522
s522$ etcd
machine add s523
s523$ etcd
machine add s524
s524$ etcd
machine add s525
s525$ etcd
machine add s526
s526$ etcd
machine add s527
s527$ etcd
machine add s528
s528$ etcd
machine add s529
s529$ etcd
machine add s530
s530$ etcd
machine add s531
s531$ etcd
machine add s532
s532$ etcd
machine add s533
s533$ etcd
machine add s534
s534$ etcd
machine add s535
s535$ etcd
machine add s536
s536$ etcd
machine add s537
s537$ etcd
machine add s538
s538$ etcd
machine add s539
s539$ etcd
machine add s540
s540$ etcd
machine add s541
s541$ etcd
machine add s542
s542$ etcd
machine add s543
s543$ etcd
machine add s544
s544$ etcd
machine add s545
s545$ etcd
machine add s546
s546$ etcd
machine add s547
s547$ etcd
machine add s548
s548$ etcd
machine add s549
s549$ etcd
machine add s550
s550$ etcd
machine add s551
s551$ etcd
machine add s552
s552$ etcd
machine add s553
s553$ etcd
machine add s554
s554$ etcd
machine add s555
s555$ etcd
machine add s556
s556$ etcd
machine add s557
s557$ etcd
machine add s558
s558$ etcd
machine add s559
s559$ etcd
machine add s560
s560$ etcd
machine add s561
s561$ etcd
machine add s562
s562$ etcd
machine add s563
s563$ etcd
machine add s564
s564$ etcd
machine add s565
s565$ etcd
machine add s566
s566$ etcd
machine add s567
s567$ etcd
machine add s568
s568$ etcd
machine add s569
s569$ etcd
machine add s570
s570$ etcd
machine add s571
s571$ etcd
machine add s572
s572$ etcd
machine add s573
s573$ etcd
machine add s574
s574$ etcd
machine add s575
s575$ etcd
machine add s576
s576$ etcd
machine add s577
s577$ etcd
machine add s578
s578$ etcd
machine add s579
s579$ etcd
machine add s580
s580$ etcd
machine add s581
s581$ etcd
machine add s582
s582$ etcd
machine add s583
s583$ etcd
machine add s584
s584$ etcd
machine add s585
s585$ etcd
machine add s586
s586$ etcd
machine add s587
s587$ etcd
machine add s588
s588$ etcd
machine add s589
s589$ etcd
machine add s590
s590$ etcd
machine add s591
s591$ etcd
machine add s592
s592$ etcd
machine add s593
s593$ etcd
machine add s594
s594$ etcd
machine add s595
s595$ etcd
machine add s596
s596$ etcd
machine add s597
s597$ etcd
machine add s598
s598$ etcd
machine add s599
s599$ etcd
machine add s600
s600$ etcd
machine add s601
s601$ etcd
machine add s602
s602$ etcd
machine add s603
s603$ etcd
machine add s604
s604$ etcd
machine add s605
s605$ etcd
machine add s606
s606$ etcd
machine add s607
s607$ etcd
machine add s608
s608$ etcd
machine add s609
s609$ etcd
machine add s610
s610$ etcd
machine add s611
s611$ etcd
machine add s612
s612$ etcd
machine add s613
s613$ etcd
machine add s614
s614$ etcd
machine add s615
s615$ etcd
machine add s616
s616$ etcd
machine add s617
s617$ etcd
machine add s618
s618$ etcd
machine add s619
s619$ etcd
machine add s620
s620$ etcd
machine add s621
s621$ etcd
machine add s622
s622$ etcd
machine add s623
s623$ etcd
machine add s624
s624$ etcd
machine add s625
s625$ etcd
machine add s626
s626$ etcd
machine add s627
s627$ etcd
machine add s628
s628$ etcd
machine add s629
s629$ etcd
machine add s630
s630$ etcd
machine add s631
s631$ etcd
machine add s632
s632$ etcd
machine add s633
s633$ etcd
machine add s634
s634$ etcd
machine add s635
s635$ etcd
machine add s636
s636$ etcd
machine add s637
s637$ etcd
machine add s638
s638$ etcd
machine add s639
s639$ etcd
machine add s640
s640$ etcd
machine add s641
s641$ etcd
machine add s642
s642$ etcd
machine add s643
s643$ etcd
machine add s644
s644$ etcd
machine add s645
s645$ etcd
machine add s646
s646$ etcd
machine add s647
s647$ etcd
machine add s648
s648$ etcd
machine add s649
s649$ etcd
machine add s650
s650$ etcd
machine add s651
s651$ etcd
machine add s652
s652$ etcd
machine add s653
s653$ etcd
machine add s654
s654$ etcd
machine add s655
s655$ etcd
machine add s656
s656$ etcd
machine add s657
s657$ etcd
machine add s658
s658$ etcd
machine add s659
s659$ etcd
machine add s660
s660$ etcd
machine add s661
s661$ etcd
machine add s662
s662$ etcd
machine add s663
s663$ etcd
machine add s664
s664$ etcd
machine add s665
s665$ etcd
machine add s666
s666$ etcd
machine add s667
s667$ etcd
machine add s668
s668$ etcd
machine add s669
s669$ etcd
machine add s670
s670$ etcd
machine add s671
s671$ etcd
machine add s672
s672$ etcd
machine add s673
s673$ etcd
machine add s674
s674$ etcd
machine add s675
s675$ etcd
machine add s676
s676$ etcd
machine add s677
s677$ etcd
machine add s678
s678$ etcd
machine add s679
s679$ etcd
machine add s680
s680$ etcd
machine add s681
s681$ etcd
machine add s682
s682$ etcd
machine add s683
s683$ etcd
machine add s684
s684$ etcd
machine add s685
s685$ etcd
machine add s686
s686$ etcd
machine add s687
s687$ etcd
machine add s688
s688$ etcd
machine add s689
s689$ etcd
machine add s690
s690$ etcd
machine add s691
s691$ etcd
machine add s692
s692$ etcd
machine add s693
s693$ etcd
machine add s694
s694$ etcd
machine add s695
s695$ etcd
machine add s696
s696$ etcd
machine add s697
s697$ etcd
machine add s698
s698$ etcd
machine add s699
s699$ etcd
machine add s700
s700$ etcd
machine add s701
s701$ etcd
machine add s702
s702$ etcd
machine add s703
s703$ etcd
machine add s704
s704$ etcd
machine add s705
s705$ etcd
machine add s706
s706$ etcd
machine add s707
s707$ etcd
machine add s708
s708$ etcd
machine add s709
s709$ etcd
machine add s710
s710$ etcd
machine add s711
s711$ etcd
machine add s712
s712$ etcd
machine add s713
s713$ etcd
machine add s714
s714$ etcd
machine add s715
s715$ etcd
machine add s716
s716$ etcd
machine add s717
s717$ etcd
machine add s718
s718$ etcd
machine add s719
s719$ etcd
machine add s720
s720$ etcd
machine add s721
s721$ etcd
machine add s722
s722$ etcd
machine add s723
s723$ etcd
machine add s724
s724$ etcd
machine add s725
s725$ etcd
machine add s726
s726$ etcd
machine add s727
s727$ etcd
machine add s728
s728$ etcd
machine add s729
s729$ etcd
machine add s730
s730$ etcd
machine add s731
s731$ etcd
machine add s732
s732$ etcd
machine add s733
s733$ etcd
machine add s734
s734$ etcd
machine add s735
s735$ etcd
machine add s736
s736$ etcd
machine add s737
s737$ etcd
machine add s738
s738$ etcd
machine add s739
s739$ etcd
machine add s740
s740$ etcd
machine add s741
s741$ etcd
machine add s742
s742$ etcd
machine add s743
s743$ etcd
machine add s744
s744$ etcd
machine add s745
s745$ etcd
machine add s746
s746$ etcd
machine add s747
s747$ etcd
machine add s748
s748$ etcd
machine add s749
s749$ etcd
machine add s750
s750$ etcd
machine add s751
s751$ etcd
machine add s752
s752$ etcd
machine add s753
s753$ etcd
machine add s754
s754$ etcd
machine add s755
s755$ etcd
machine add s756
s756$ etcd
machine add s757
s757$ etcd
machine add s758
s758$ etcd
machine add s759
s759$ etcd
machine add s760
s760$ etcd
machine add s761
s761$ etcd
machine add s762
s762$ etcd
machine add s763
s763$ etcd
machine add s764
s764$ etcd
machine add s765
s765$ etcd
machine add s766
s766$ etcd
machine add s767
s767$ etcd
machine add s768
s768$ etcd
machine add s769
s769$ etcd
machine add s770
s770$ etcd
machine add s771
s771$ etcd
machine add s772
s772$ etcd
machine add s773
s773$ etcd
machine add s774
s774$ etcd
machine add s775
s775$ etcd
machine add s776
s776$ etcd
machine add s777
s777$ etcd
machine add s778
s778$ etcd
machine add s779
s779$ etcd
machine add s780
s780$ etcd
machine add s781
s781$ etcd
machine add s782
s782$ etcd
machine add s783
s783$ etcd
machine add s784
s784$ etcd
machine add s785
s785$ etcd
machine add s786
s786$ etcd
machine add s787
s787$ etcd
machine add s788
s788$ etcd
machine add s789
s789$ etcd
sleep 24h
sleep 24h
